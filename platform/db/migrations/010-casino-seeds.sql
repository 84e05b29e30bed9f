-- Provably fair casino and game draws (issue 15; docs/protocol.md "Casino and game bets"). A draw is
-- HMAC-SHA256 keyed by the active server seed, which no player can know: its sha256 is
-- published while it is in use, and the seed itself once it is retired, so every draw made with
-- it can be checked afterwards. One seed is active at a time.
CREATE TABLE casino_seeds (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  seed        text NOT NULL,
  seed_hash   text NOT NULL UNIQUE,
  started_at  timestamptz NOT NULL DEFAULT now(),
  retired_at  timestamptz
);
CREATE UNIQUE INDEX casino_seeds_one_active ON casino_seeds ((retired_at IS NULL)) WHERE retired_at IS NULL;

-- The seed each round was drawn with (rounds played before this migration have none).
ALTER TABLE casino_bets ADD COLUMN seed_id bigint REFERENCES casino_seeds (id);
