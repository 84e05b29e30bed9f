-- Accounts, sessions, end users and sports bets: the first slice of the platform.
-- Money is integer minor units (bigint); prices are exact numeric; never floating point.

CREATE TABLE partner_roles (
  id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name   text NOT NULL UNIQUE,
  level  smallint NOT NULL UNIQUE CHECK (level > 0)
);

-- Super admin (role 1), staff (role 2) and partners (role 3).
CREATE TABLE admins (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username         text NOT NULL CHECK (username <> ''),
  password_hash    text NOT NULL,
  role             smallint NOT NULL CHECK (role IN (1, 2, 3)),
  permissions      jsonb NOT NULL DEFAULT '{}',
  partner_role_id  bigint REFERENCES partner_roles (id),
  parent_id        bigint REFERENCES admins (id),
  share            jsonb NOT NULL DEFAULT '{}',
  balance          bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  -- Seeded demo credentials: refused at login under NODE_ENV=production.
  demo_password    boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((role = 3) = (partner_role_id IS NOT NULL))
);
CREATE UNIQUE INDEX admins_username_key ON admins (lower(username));
CREATE INDEX admins_parent_idx ON admins (parent_id);

CREATE TABLE admin_sessions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  udid        text NOT NULL UNIQUE,
  -- sha256 of the bearer token; the token itself is never stored.
  token_hash  text NOT NULL UNIQUE,
  admin_id    bigint NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  ip          text NOT NULL,
  user_agent  text NOT NULL
);
CREATE INDEX admin_sessions_live_idx ON admin_sessions (admin_id) WHERE revoked_at IS NULL;

CREATE TABLE login_logs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_kind  text NOT NULL CHECK (account_kind IN ('admin', 'user')),
  account_id    bigint NOT NULL,
  ip            text NOT NULL,
  user_agent    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_logs_account_idx ON login_logs (account_kind, account_id, created_at DESC);

-- End users (players), each under one admin (the super admin or a partner).
CREATE TABLE users (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username       text NOT NULL CHECK (username <> ''),
  password_hash  text NOT NULL,
  mob_no         text,
  parent_id      bigint NOT NULL REFERENCES admins (id),
  balance        bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  bonus          bigint NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  login_enabled  boolean NOT NULL DEFAULT true,
  bet_enabled    boolean NOT NULL DEFAULT true,
  permissions    jsonb NOT NULL DEFAULT '{}',
  demo_password  boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now()
);
-- text_pattern_ops serves both the uniqueness check and prefix search (LIKE 'abc%').
CREATE UNIQUE INDEX users_username_key ON users (lower(username) text_pattern_ops);
CREATE INDEX users_created_idx ON users (created_at DESC, id DESC);
CREATE INDEX users_parent_created_idx ON users (parent_id, created_at DESC, id DESC);

CREATE TABLE sports_bets (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      bigint NOT NULL REFERENCES users (id),
  sport        smallint NOT NULL CHECK (sport IN (0, 1, 2)),
  event_id     text NOT NULL,
  market       text NOT NULL,
  market_type  text NOT NULL,
  runner       text NOT NULL,
  is_back      boolean NOT NULL,
  price        numeric(12, 2) NOT NULL CHECK (price > 0),
  amount       bigint NOT NULL CHECK (amount > 0),
  odds         numeric(12, 2),
  status       text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAIL', 'ABANDONED')),
  profit       bigint NOT NULL DEFAULT 0,
  loss         bigint NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sports_bets_pending_idx ON sports_bets (created_at DESC, id DESC) WHERE status = 'PENDING';
CREATE INDEX sports_bets_user_created_idx ON sports_bets (user_id, created_at DESC);
CREATE INDEX sports_bets_event_idx ON sports_bets (event_id);
