-- The pending queue's total when two filters combine (an event and its sport, an event and one
-- of its markets, as Settle market… asks) is counted, not kept (migration 005's counters hold one
-- filter each). At 1,000,000 pending bets PostgreSQL counted an event and sport by ANDing the
-- bitmaps of every bet of the event (1.8 million, settled ones too) with every pending bet of the
-- sport: about 2 s (docs/benchmarks.md, "PostgreSQL query plans"). This index holds the filters of
-- the pending bets only, so such a count reads the event's entries and nothing else (an
-- index-only scan).
CREATE INDEX sports_bets_pending_filters_idx ON sports_bets (event_id, market_id, sport, user_id) WHERE status = 'PENDING';
