-- Console sessions (issue 30, ADR 0010): a sign-in is a row every console instance reads, so an
-- ended session is refused everywhere on its next request. The cookie carries only a random
-- secret; the row is found by its SHA-256 (`secret_hash`), so the store alone opens no session.
-- `id` is the session's public name (the /sessions screen, the audit trail). The upstream token
-- and udid are AES-256-GCM ciphertext under a key derived from SESSION_SECRET.
create table console_sessions (
  id text primary key,
  secret_hash text not null unique,
  operator text not null,
  role integer not null,
  factor text not null,
  factor_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  address text not null default '',
  browser text not null default '',
  upstream text not null,
  ended_at timestamptz,
  ended_reason text
);
-- An operator's sessions: the /sessions screen, ending them all at a password change, and the
-- role they last signed in with (the allowlist's check before the password goes upstream).
create index console_sessions_operator on console_sessions (operator, created_at);

-- The address allowlist (issue 30): the CIDR ranges a role may sign in from, as a JSON array of
-- strings. A role without a row (or with an empty array) may sign in from anywhere.
create table console_allowlist (
  role integer primary key,
  ranges jsonb not null
);
