-- The account desk: partner switches, revealable passwords, the money ledger, the audit
-- log, end-user sessions, the default admin, and the indexes the user/partner lists need.

-- The super admin is the house: its balance may go negative (shown as "unlimited").
ALTER TABLE admins DROP CONSTRAINT admins_balance_check;
ALTER TABLE admins ADD CONSTRAINT admins_balance_check CHECK (role = 1 OR balance >= 0);

-- Partners have the same Login and Bet switches as end users.
ALTER TABLE admins ADD COLUMN login_enabled boolean NOT NULL DEFAULT true;
ALTER TABLE admins ADD COLUMN bet_enabled boolean NOT NULL DEFAULT true;

-- The password encrypted (AES-256-GCM) under the server's reveal key, only so the super
-- admin can read it back; sign-in checks password_hash. Null when never set through the desk.
ALTER TABLE admins ADD COLUMN password_sealed text;
ALTER TABLE users ADD COLUMN password_sealed text;

-- Lower-cased usernames stored once, so search and sort never call lower() per row
-- (on 100,000 rows under PGlite that alone costs ~60 ms).
ALTER TABLE admins ADD COLUMN username_key text GENERATED ALWAYS AS (lower(username)) STORED;
ALTER TABLE users ADD COLUMN username_key text GENERATED ALWAYS AS (lower(username)) STORED;

-- Sort orders of the lists, each with the id tie-break (scanned backwards for descending).
CREATE INDEX users_username_order_idx ON users (username_key, id);
CREATE INDEX users_balance_order_idx ON users (balance, id);
CREATE INDEX users_bonus_order_idx ON users (bonus, id);
CREATE INDEX admins_role_created_idx ON admins (role, created_at, id);

-- Substring search (LIKE '%abc%') through trigrams. pg_trgm exists once per database:
-- install it in public unless an operator already installed it elsewhere, and name its
-- operator class by the schema it lives in, whatever the search_path.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
DO $$
DECLARE
  trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  EXECUTE format('CREATE INDEX users_username_trgm_idx ON users USING gin (username_key %I.gin_trgm_ops)', trgm_schema);
END
$$;

-- One row of platform-wide settings.
CREATE TABLE settings (
  id                boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- The partner that receives end users created by the super admin or staff.
  default_admin_id  bigint REFERENCES admins (id)
);
INSERT INTO settings DEFAULT VALUES;

-- A transfer moves money between accounts; its legs (ledger_entries) sum to zero.
-- The client's request id makes a retried deposit or withdrawal happen once.
CREATE TABLE ledger_transfers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('opening', 'deposit', 'withdraw')),
  actor_id    bigint NOT NULL REFERENCES admins (id),
  request_id  text,
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ledger_transfers_request_key ON ledger_transfers (actor_id, request_id);

-- account_kind 'admin' is a row of admins (the house or a partner), 'user' a row of users.
CREATE TABLE ledger_entries (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id    bigint NOT NULL REFERENCES ledger_transfers (id),
  account_kind   text NOT NULL CHECK (account_kind IN ('admin', 'user')),
  account_id     bigint NOT NULL,
  amount         bigint NOT NULL CHECK (amount <> 0),
  balance_after  bigint NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_kind, account_id, id);
CREATE INDEX ledger_entries_transfer_idx ON ledger_entries (transfer_id);

CREATE TABLE audit_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_id     bigint NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  action       text NOT NULL,
  target_kind  text NOT NULL CHECK (target_kind IN ('admin', 'user')),
  -- The ids concerned, as decimal strings.
  target_ids   jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC);

-- End-user sessions: the same opaque-token scheme as admin_sessions.
CREATE TABLE user_sessions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  ip          text NOT NULL,
  user_agent  text NOT NULL
);
CREATE INDEX user_sessions_live_idx ON user_sessions (user_id) WHERE revoked_at IS NULL;
