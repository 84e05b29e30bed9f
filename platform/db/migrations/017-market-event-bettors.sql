-- Who holds open bets on an event (issue 20): per event and user, how many open positions
-- (market_positions rows) the user holds there, and per event how many such users. Kept by the
-- statements that keep the positions (sports/book-repository.ts): the (event, user) row's lock
-- orders a placement and a settlement of one user on one event, so the count stays exact. The
-- house's /market-bets counts an event's bettors from one row instead of its 200,000 positions.
CREATE TABLE market_event_bettors (
  event_id  text NOT NULL,
  user_id   bigint NOT NULL REFERENCES users (id),
  positions bigint NOT NULL CHECK (positions >= 0),
  PRIMARY KEY (event_id, user_id)
);
CREATE TABLE market_event_bettor_counts (
  event_id text PRIMARY KEY,
  n        bigint NOT NULL CHECK (n >= 0)
);

INSERT INTO market_event_bettors (event_id, user_id, positions)
SELECT event_id, user_id, count(*) FROM market_positions GROUP BY event_id, user_id;
INSERT INTO market_event_bettor_counts (event_id, n)
SELECT event_id, count(*) FROM market_event_bettors GROUP BY event_id;
