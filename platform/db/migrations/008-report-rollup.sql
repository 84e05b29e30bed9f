-- The reports' daily rollup: per Asia/Kolkata day, game flag and subject (the house, each
-- partner in a result's chain, the user), the book's result split by where the user stands,
-- kept in the transaction that records each bet result. A report then sums a few rows per day
-- and game, however many bets were settled.
--
-- subject_kind 'house' (subject_id 0), 'partner' (an admin id) or 'user' (a user id).
-- direct: results of the subject's own users (for a user: its own results); indirect: results
-- of users under its sub-panels. Both in minor units, positive when the book gained.
-- my_share: percent × minor units (exact): for each result, the subject's share of the game
-- minus the share its child panel in the chain took, times the result. The house holds 100 %
-- of whatever its top partner did not take.
CREATE TABLE report_rollup (
  subject_kind  text NOT NULL CHECK (subject_kind IN ('house', 'partner', 'user')),
  subject_id    bigint NOT NULL,
  day           date NOT NULL,
  game          text NOT NULL CHECK (game IN ('cricket', 'football', 'tennis', 'bookmaker', 'fancy', 'casino')),
  direct        bigint NOT NULL DEFAULT 0,
  indirect      bigint NOT NULL DEFAULT 0,
  my_share      numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (subject_kind, subject_id, day, game)
);

-- Adds the given bet_results rows to the rollup: the one place its arithmetic lives (each
-- settlement, the seed's batches and the backfill below call it). A day is the settlement's
-- Asia/Kolkata date (UTC+05:30, no daylight saving).
CREATE FUNCTION report_rollup_add(result_ids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH results AS (
    SELECT id, user_id, game, house_result, chain, jsonb_array_length(chain) AS depth,
           ((settled_at AT TIME ZONE 'UTC') + interval '5 hours 30 minutes')::date AS day
    FROM bet_results WHERE id = ANY (result_ids)
  ), rows AS (
    SELECT 'user' AS subject_kind, user_id AS subject_id, day, game,
           house_result AS direct, 0::bigint AS indirect, 0::numeric AS my_share
    FROM results
    UNION ALL
    -- chain is nearest first: link 1 is the user's own panel, link n-1 its child panel.
    SELECT 'partner', (link.value ->> 'id')::bigint, day, game,
           CASE WHEN link.n = 1 THEN house_result ELSE 0 END,
           CASE WHEN link.n = 1 THEN 0 ELSE house_result END,
           ((link.value ->> 'share')::numeric
             - CASE WHEN link.n = 1 THEN 0 ELSE (chain -> (link.n::int - 2) ->> 'share')::numeric END) * house_result
    FROM results, jsonb_array_elements(chain) WITH ORDINALITY AS link (value, n)
    UNION ALL
    SELECT 'house', 0, day, game,
           CASE WHEN depth = 0 THEN house_result ELSE 0 END,
           CASE WHEN depth = 0 THEN 0 ELSE house_result END,
           (100 - CASE WHEN depth = 0 THEN 0 ELSE (chain -> (depth - 1) ->> 'share')::numeric END) * house_result
    FROM results
  )
  INSERT INTO report_rollup AS kept (subject_kind, subject_id, day, game, direct, indirect, my_share)
  SELECT subject_kind, subject_id, day, game, sum(direct), sum(indirect), sum(my_share)
  FROM rows GROUP BY subject_kind, subject_id, day, game
  ON CONFLICT (subject_kind, subject_id, day, game) DO UPDATE SET
    direct = kept.direct + excluded.direct,
    indirect = kept.indirect + excluded.indirect,
    my_share = kept.my_share + excluded.my_share;
$$;

-- Results recorded before this migration.
SELECT report_rollup_add(coalesce((SELECT array_agg(id) FROM bet_results), '{}'));
