-- The sports book: the feed's store (events, markets, runners), bets placed against it
-- with their exposure reserved through the ledger, casino and game bets, what each
-- settlement meant for the house and the partner chain (for reports), and the audit of
-- resettlements.

-- The feed store: whatever provider feeds it (the simulator by default) writes here, and
-- bet placement reads the price on offer from here.
CREATE TABLE sports_events (
  event_id    text PRIMARY KEY,
  sport       smallint NOT NULL CHECK (sport IN (0, 1, 2)),
  team_a      text NOT NULL,
  team_b      text NOT NULL,
  start_time  timestamptz NOT NULL,
  inplay      boolean NOT NULL DEFAULT false,
  status      text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('ACTIVE', 'OPEN', 'SUSPENDED', 'CLOSED')),
  -- The simulated score the scorecard page shows: free-form lines.
  score       jsonb NOT NULL DEFAULT '[]',
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sports_events_sport_idx ON sports_events (sport, inplay DESC, start_time);

-- type: odds (match odds), bookmaker (one price a side), fancy (a run line; heading groups them).
-- result: the winning runner's name, or for a fancy line the final run count; null while open.
CREATE TABLE sports_markets (
  market_id   text PRIMARY KEY,
  event_id    text NOT NULL REFERENCES sports_events (event_id),
  type        text NOT NULL CHECK (type IN ('odds', 'bookmaker', 'fancy')),
  name        text NOT NULL,
  heading     text,
  status      text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('ACTIVE', 'OPEN', 'SUSPENDED', 'CLOSED')),
  result      text,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sports_markets_event_idx ON sports_markets (event_id);

-- A fancy line has one runner named as the line: back is yes (price = run line, size = rate
-- per 100), lay is no. Bookmaker runners leave the sizes null.
CREATE TABLE sports_runners (
  market_id   text NOT NULL REFERENCES sports_markets (market_id),
  name        text NOT NULL,
  position    smallint NOT NULL,
  status      text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'OPEN', 'SUSPENDED', 'CLOSED')),
  back_price  numeric(12, 2),
  back_size   numeric(14, 2),
  lay_price   numeric(12, 2),
  lay_size    numeric(14, 2),
  PRIMARY KEY (market_id, name)
);

-- Bets now name their market, hold the exposure reserved at placement and record who
-- settled them and when. Seeded bets from before this migration keep a null market_id.
ALTER TABLE sports_bets ADD COLUMN market_id text;
ALTER TABLE sports_bets ADD COLUMN exposure bigint NOT NULL DEFAULT 0 CHECK (exposure >= 0);
ALTER TABLE sports_bets ADD COLUMN settled_at timestamptz;
ALTER TABLE sports_bets ADD COLUMN settled_by bigint REFERENCES admins (id);
-- The player's idempotency key: a retried placement returns the first bet instead of a second.
ALTER TABLE sports_bets ADD COLUMN request_id text;
CREATE UNIQUE INDEX sports_bets_request_key ON sports_bets (user_id, request_id) WHERE request_id IS NOT NULL;
-- Bets seeded before the book reserved nothing, so voiding them moves no money.
UPDATE sports_bets SET status = 'ABANDONED', profit = 0, loss = 0, settled_at = now() WHERE status = 'PENDING';
UPDATE sports_bets SET settled_at = created_at WHERE settled_at IS NULL;
ALTER TABLE sports_bets ADD CONSTRAINT sports_bets_market_type_check CHECK (market_type IN ('odds', 'bookmaker', 'fancy'));
-- The desk works the queue oldest first, filtered by event, market, user or sport.
DROP INDEX sports_bets_pending_idx;
CREATE INDEX sports_bets_pending_idx ON sports_bets (created_at, id) WHERE status = 'PENDING';
CREATE INDEX sports_bets_pending_event_idx ON sports_bets (event_id, created_at, id) WHERE status = 'PENDING';
CREATE INDEX sports_bets_pending_market_idx ON sports_bets (market_id, created_at, id) WHERE status = 'PENDING';
CREATE INDEX sports_bets_pending_user_idx ON sports_bets (user_id, created_at, id) WHERE status = 'PENDING';
CREATE INDEX sports_bets_pending_sport_idx ON sports_bets (sport, created_at, id) WHERE status = 'PENDING';

-- How many bets are pending, in all (key 'all') and per event, market, user and sport
-- ('event:<id>', 'market:<id>', 'user:<id>', 'sport:<code>'), kept in the transactions that
-- place and settle bets: counting 100,000 pending rows per page of the desk's queue costs
-- PGlite far more than the page itself.
CREATE TABLE sports_pending_counts (
  key  text PRIMARY KEY,
  n    bigint NOT NULL CHECK (n >= 0)
);

-- Casino (kind 1: provider and game code) and game (kind 2: runner and game id) bets. Both
-- settle when placed, so status is never PENDING.
CREATE TABLE casino_bets (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind           smallint NOT NULL CHECK (kind IN (1, 2)),
  user_id        bigint NOT NULL REFERENCES users (id),
  provider_code  text,
  game_code      text NOT NULL,
  runner_name    text,
  round_id       text NOT NULL,
  amount         bigint NOT NULL CHECK (amount > 0),
  status         text NOT NULL CHECK (status IN ('SUCCESS', 'FAIL')),
  profit         bigint NOT NULL DEFAULT 0,
  loss           bigint NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 1) = (provider_code IS NOT NULL) AND (kind = 2) = (runner_name IS NOT NULL))
);
CREATE INDEX casino_bets_user_idx ON casino_bets (user_id, kind, created_at, id);
-- A round is played once per user and game: a retried placement cannot draw again.
CREATE UNIQUE INDEX casino_bets_round_key ON casino_bets (user_id, kind, game_code, round_id);

-- One row per settlement (and one negated row per reversal), append only, so a report sums
-- house_result by game over settled_at without reading the bets. game is the game flag;
-- chain lists the partners above the user, nearest first, with each one's share (percent)
-- for that game at that moment: [{"id": "12", "share": 80}, …].
CREATE TABLE bet_results (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bet_kind      text NOT NULL CHECK (bet_kind IN ('sports', 'casino')),
  bet_id        bigint NOT NULL,
  settled_at    timestamptz NOT NULL DEFAULT now(),
  game          text NOT NULL CHECK (game IN ('cricket', 'football', 'tennis', 'bookmaker', 'fancy', 'casino')),
  user_id       bigint NOT NULL REFERENCES users (id),
  -- Minor units the house gained (negative: the user won).
  house_result  bigint NOT NULL,
  chain         jsonb NOT NULL
);
CREATE INDEX bet_results_settled_idx ON bet_results (settled_at, game);
CREATE INDEX bet_results_user_idx ON bet_results (user_id, settled_at);

CREATE TABLE bet_resettlements (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bet_id         bigint NOT NULL REFERENCES sports_bets (id),
  actor_id       bigint NOT NULL REFERENCES admins (id),
  before_status  text NOT NULL,
  after_status   text NOT NULL,
  before_profit  bigint NOT NULL,
  before_loss    bigint NOT NULL,
  after_profit   bigint NOT NULL,
  after_loss     bigint NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bet_resettlements_bet_idx ON bet_resettlements (bet_id);

-- Exposure reserved by pending bets.
INSERT INTO system_accounts (name) VALUES ('bet-exposure');

ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check;
ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (
  'opening', 'deposit', 'withdraw',
  'request-deposit', 'main-bonus', 'bonus', 'coupon-bonus',
  'withdraw-reserve', 'withdraw-return', 'withdraw-payout',
  -- user → exposure at placement; exposure → user (won, void) or → house (lost); house → user winnings
  'bet-place', 'bet-settle', 'bet-win',
  -- compensating transfers that undo a settlement before its new outcome is applied
  'bet-resettle',
  -- casino and game bets: the stake to the house, the payout back
  'casino-stake', 'casino-win'
));
