-- Settlement in fewer statements (issue 9: a 1,000-bet market within 5 s on PGlite, where
-- every statement is a round trip through one connection). Two pieces move into the
-- database so that a settlement's transaction does not ask for them one by one:

-- The partners above a user, nearest first, with each one's share of `for_game` now: the
-- chain a bet result records (migration 005) as [{"id": "12", "share": 80}, …].
CREATE FUNCTION partner_chain(for_user bigint, for_game text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  WITH RECURSIVE chain (id, parent_id, role, share, depth) AS (
    SELECT a.id, a.parent_id, a.role, a.share, 0 FROM admins a JOIN users u ON u.parent_id = a.id WHERE u.id = for_user
    UNION ALL
    SELECT a.id, a.parent_id, a.role, a.share, c.depth + 1 FROM admins a JOIN chain c ON a.id = c.parent_id WHERE c.role = 3
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', id::text, 'share', coalesce((share ->> for_game)::numeric, 0)) ORDER BY depth), '[]')
  FROM chain WHERE role = 3
$$;

-- The reports' rollup (migration 008) follows every insert of bet results in the inserting
-- statement, so no caller can record a result and forget the rollup.
CREATE FUNCTION bet_results_to_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_rollup_add(ARRAY(SELECT id FROM added));
  RETURN NULL;
END
$$;
CREATE TRIGGER bet_results_rollup AFTER INSERT ON bet_results REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION bet_results_to_rollup();
