-- The market book: each open position per event, market, runner (for fancy lines also the
-- bet's run line) and user, kept in the transactions that place and settle bets, so the
-- desk's book of an event sums a few rows per runner and user instead of its open bets.
-- if_won: what the house gains if the runner wins (fancy: the innings reaches the line);
-- if_lost: what it gains otherwise. Negative is a loss. Minor units.
CREATE TABLE market_positions (
  event_id  text NOT NULL,
  market_id text NOT NULL,
  runner    text NOT NULL,
  -- The bet's run line on fancy markets; 0 on odds and bookmaker markets.
  line      numeric(12, 2) NOT NULL DEFAULT 0,
  user_id   bigint NOT NULL REFERENCES users (id),
  if_won    bigint NOT NULL,
  if_lost   bigint NOT NULL,
  -- The open stake and how many open bets make the position; a position at 0 bets is deleted.
  stake     bigint NOT NULL CHECK (stake >= 0),
  bets      bigint NOT NULL CHECK (bets >= 0),
  PRIMARY KEY (market_id, runner, line, user_id)
);
CREATE INDEX market_positions_event_idx ON market_positions (event_id, user_id);

-- The bets already open when this migration runs, with the settlement rules of
-- platform/modules/bets/arithmetic.ts at this moment (half-up rounding of hundredths).
INSERT INTO market_positions (event_id, market_id, runner, line, user_id, if_won, if_lost, stake, bets)
SELECT event_id, market_id, runner, line, user_id,
       sum(CASE WHEN is_back THEN -winnings ELSE exposure END),
       sum(CASE WHEN is_back THEN exposure ELSE -winnings END),
       sum(amount), count(*)
  FROM (
    SELECT event_id, market_id, runner, user_id, is_back, amount, exposure,
           CASE WHEN market_type = 'fancy' THEN price ELSE 0 END AS line,
           CASE
             WHEN NOT is_back THEN amount
             WHEN market_type = 'fancy' THEN (amount * round(coalesce(odds, price) * 100)::bigint + 5000) / 10000
             ELSE (amount * (round(price * 100)::bigint - 100) + 50) / 100
           END AS winnings
      FROM sports_bets
     WHERE status = 'PENDING' AND market_id IS NOT NULL
  ) open_bets
 GROUP BY event_id, market_id, runner, line, user_id;
