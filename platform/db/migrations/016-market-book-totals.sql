-- The market book's totals (issue 20): each market, runner and line's open positions summed over
-- every user, kept in the same statements that keep the positions (sports/book-repository.ts),
-- so the house desk's book of an event reads a few rows per runner instead of every position
-- (an event with 200,000 open bets held about as many). A partner's or a user's book still sums
-- its positions. Summed here from the positions open when this runs.
CREATE TABLE market_book_totals (
  event_id  text NOT NULL,
  market_id text NOT NULL,
  runner    text NOT NULL,
  line      numeric(12, 2) NOT NULL DEFAULT 0,
  if_won    bigint NOT NULL,
  if_lost   bigint NOT NULL,
  stake     bigint NOT NULL CHECK (stake >= 0),
  bets      bigint NOT NULL CHECK (bets >= 0),
  PRIMARY KEY (market_id, runner, line)
);
CREATE INDEX market_book_totals_event_idx ON market_book_totals (event_id);

INSERT INTO market_book_totals (event_id, market_id, runner, line, if_won, if_lost, stake, bets)
SELECT event_id, market_id, runner, line, sum(if_won), sum(if_lost), sum(stake), sum(bets)
  FROM market_positions
 GROUP BY event_id, market_id, runner, line;
