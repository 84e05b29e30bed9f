-- The next casino seed, announced before it draws (issue 29; docs/protocol.md "Casino and game
-- bets"). A seed is created as the next one, its hash published at `announced_at` and its
-- `started_at` null; a rotation retires the active seed, starts the next one and announces a new
-- next one, in one transaction. So every seed's hash is public for a whole rotation before its
-- first round, and a round draws only with a seed announced before the round began. At most one
-- seed is active and one is next; the indexes let one of two instances rotating at once win.
ALTER TABLE casino_seeds ADD COLUMN announced_at timestamptz;
-- Seeds drawn before this migration were published when they started.
UPDATE casino_seeds SET announced_at = started_at;
ALTER TABLE casino_seeds ALTER COLUMN announced_at SET NOT NULL, ALTER COLUMN announced_at SET DEFAULT now();
ALTER TABLE casino_seeds ALTER COLUMN started_at DROP NOT NULL, ALTER COLUMN started_at DROP DEFAULT;
ALTER TABLE casino_seeds ADD CONSTRAINT casino_seeds_lifecycle
  CHECK (started_at >= announced_at AND (retired_at IS NULL OR (started_at IS NOT NULL AND retired_at >= started_at)));

DROP INDEX casino_seeds_one_active;
CREATE UNIQUE INDEX casino_seeds_one_active ON casino_seeds ((retired_at IS NULL)) WHERE retired_at IS NULL AND started_at IS NOT NULL;
CREATE UNIQUE INDEX casino_seeds_one_next ON casino_seeds ((started_at IS NULL)) WHERE started_at IS NULL;
