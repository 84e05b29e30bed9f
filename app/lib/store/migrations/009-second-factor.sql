-- The console's second factor (issue 30): authenticator keys, recovery codes and passkeys per
-- operator, the attempts that cool a guesser down, sign-ins waiting for their second step, the
-- super admin's policy. When a session last gave a factor is its factor_at (migration 008).
-- Every secret is sealed (AES-256-GCM under MFA_KEY) or hashed before it is written here.

-- An operator's authenticator key; unconfirmed until the first code is given. last_step is the
-- last time-step a code was accepted for, so a code is accepted once.
create table console_mfa_totp (
  username text primary key,
  secret_sealed text not null,
  confirmed boolean not null default false,
  last_step bigint,
  created_at timestamptz not null default now()
);

-- Ten per operator, shown once: sha-256 of salt and code. used_at set once, by one conditional update.
create table console_mfa_recovery (
  username text not null,
  salt text not null,
  code_hash text not null,
  used_at timestamptz,
  primary key (username, code_hash)
);

create table console_mfa_passkeys (
  credential_id text primary key,
  username text not null,
  public_key text not null,
  counter bigint not null default 0,
  transports jsonb not null default '[]',
  name text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index console_mfa_passkeys_username on console_mfa_passkeys (username);

-- Failed attempts per operator (`operator:<name>`) and per address (`address:<ip>`): after five
-- inside the window the key cools down until locked_until, on every console instance.
create table console_mfa_attempts (
  key text primary key,
  failures integer not null default 0,
  last_failure_at timestamptz not null default now(),
  locked_until timestamptz
);

-- A sign-in whose password the API accepted and whose second factor is still to come. The row's
-- id is a hash of the browser's opaque cookie value; the upstream token is sealed and nothing is
-- called with it until the factor is given. challenge: a passkey ceremony's, or null.
create table console_mfa_pending (
  id text primary key,
  username text not null,
  role integer not null,
  udid text not null,
  token_sealed text not null,
  challenge text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

-- A signed-in operator's passkey registration challenge, by operator.
create table console_mfa_challenges (
  username text primary key,
  challenge text not null,
  expires_at timestamptz not null
);

-- Which roles must use a second factor; no row: the default of the environment (every role in
-- production, none otherwise).
create table console_mfa_policy (
  only_row boolean primary key default true check (only_row),
  roles jsonb not null
);

