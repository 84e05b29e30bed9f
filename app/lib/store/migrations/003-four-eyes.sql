-- Four-eyes approval (issue 19, ADR 0009). The thresholds, one row the super admin edits: a null
-- is "off", so until configured every action is performed as before.
create table console_four_eyes (
  only_row boolean primary key default true check (only_row),
  -- A manual credit or debit (user or panel deposit/withdraw) above this amount waits.
  transfer_above double precision,
  -- Every resettlement waits.
  resettle boolean not null default false,
  -- A pending approval not decided within this many hours closes as expired.
  expiry_hours integer not null default 24 check (expiry_hours > 0)
);
insert into console_four_eyes (only_row) values (true);

-- An action held for a second operator: the exact call and body (with its requestId) the maker
-- sent. Claiming is one conditional update (status = 'pending' to 'approved' by someone other than
-- the maker, before it expires), so however many checkers on however many console instances
-- approve at once, one claim wins and the call is made once.
create table console_approvals (
  id text primary key,
  call text not null,
  request jsonb not null,
  -- What the list shows: the account, the amount, the reason it was held.
  summary text not null,
  reason text not null,
  maker text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  checker text,
  decided_at timestamptz,
  -- Once performed: ok, refused or unknown, with the API's message.
  outcome text check (outcome in ('ok', 'refused', 'unknown')),
  message text
);
create index console_approvals_pending on console_approvals (status, expires_at);
