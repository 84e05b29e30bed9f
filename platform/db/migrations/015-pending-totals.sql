-- The pending queue's totals (issue 20): each kept count also keeps its bets' stake and exposure
-- (minor units), so the desk's totals per filter and per market are a few counter rows instead
-- of a read of every pending bet. Recounted here from the bets pending when this runs.
ALTER TABLE sports_pending_counts ADD COLUMN stake bigint NOT NULL DEFAULT 0;
ALTER TABLE sports_pending_counts ADD COLUMN exposure bigint NOT NULL DEFAULT 0;
DELETE FROM sports_pending_counts;
INSERT INTO sports_pending_counts (key, n, stake, exposure)
SELECT key, count(*), sum(amount), sum(exposure)
  FROM (
    SELECT 'all' AS key, amount, exposure FROM sports_bets WHERE status = 'PENDING'
    UNION ALL SELECT 'event:' || event_id, amount, exposure FROM sports_bets WHERE status = 'PENDING'
    UNION ALL SELECT 'market:' || market_id, amount, exposure FROM sports_bets WHERE status = 'PENDING' AND market_id IS NOT NULL
    UNION ALL SELECT 'user:' || user_id, amount, exposure FROM sports_bets WHERE status = 'PENDING'
    UNION ALL SELECT 'sport:' || sport, amount, exposure FROM sports_bets WHERE status = 'PENDING'
  ) keyed
 GROUP BY key;
