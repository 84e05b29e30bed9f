-- How many end users each admin has directly, kept by triggers in the statements that add,
-- move or remove users (issue 20): the users list's total without a search sums a few rows
-- instead of counting a million (a count(*) over 1,000,000 users costs PostgreSQL 60–80 ms).
-- A search still counts its matches.
CREATE TABLE user_counts (
  parent_id  bigint PRIMARY KEY REFERENCES admins (id),
  n          bigint NOT NULL CHECK (n >= 0)
);
INSERT INTO user_counts (parent_id, n) SELECT parent_id, count(*) FROM users GROUP BY parent_id;

-- Statement level with the rows added or removed: one statement per statement, however many
-- rows (the seed's COPY of a million users included).
CREATE FUNCTION user_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_counts AS kept (parent_id, n) SELECT parent_id, count(*) FROM added GROUP BY parent_id
    ON CONFLICT (parent_id) DO UPDATE SET n = kept.n + excluded.n;
  ELSE
    UPDATE user_counts AS kept SET n = kept.n - gone.n
      FROM (SELECT parent_id, count(*) AS n FROM removed GROUP BY parent_id) AS gone
     WHERE kept.parent_id = gone.parent_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_counted_in AFTER INSERT ON users REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();
CREATE TRIGGER users_counted_out AFTER DELETE ON users REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();

-- A user moved to another admin: row level, and only when parent_id changes, so that the
-- balance updates of every transfer pay nothing.
CREATE FUNCTION user_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_counts SET n = n - 1 WHERE parent_id = OLD.parent_id;
  INSERT INTO user_counts AS kept (parent_id, n) VALUES (NEW.parent_id, 1)
  ON CONFLICT (parent_id) DO UPDATE SET n = kept.n + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_counted_moved AFTER UPDATE OF parent_id ON users
  FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION user_counts_moved();
