-- When the feed closed a market with its result (issue 18): the settlement workspace lists closed
-- markets with pending bets oldest closing first (GET /market-results). Markets closed before
-- this migration take their last update as their close.
ALTER TABLE sports_markets ADD COLUMN closed_at timestamptz;
UPDATE sports_markets SET closed_at = updated_at WHERE status = 'CLOSED' AND result IS NOT NULL;
CREATE INDEX sports_markets_closed_idx ON sports_markets (closed_at, market_id) WHERE closed_at IS NOT NULL;
