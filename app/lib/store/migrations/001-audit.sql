-- The audit trail (ADR 0008): one row per state-changing upstream call, sign-in and sign-out.
-- Each row carries the hash of the one before; the single head row is locked by every append,
-- so appends from any number of console instances form one chain.
create table console_audit (
  seq bigint primary key,
  at timestamptz not null,
  operator text not null,
  operator_role smallint,
  session text,
  call text not null,
  kind text not null,
  account_id text,
  account_name text,
  amount double precision,
  balance_before double precision,
  balance_after double precision,
  outcome text not null check (outcome in ('ok', 'refused', 'unknown')),
  status integer,
  message text not null,
  request jsonb not null,
  answer jsonb,
  prev_hash text not null,
  hash text not null
);

create index console_audit_at on console_audit (at);
create index console_audit_operator on console_audit (operator, seq);
create index console_audit_account_id on console_audit (account_id, seq);
create index console_audit_account_name on console_audit (account_name, seq);
create index console_audit_call on console_audit (call, seq);

create table console_audit_head (
  only_row boolean primary key default true check (only_row),
  seq bigint not null,
  hash text not null
);
insert into console_audit_head (seq, hash) values (0, repeat('0', 64));

-- Append-only for the console itself: an edit or a deletion needs the trigger dropped first, and
-- then audit:verify names the broken entry.
create function console_audit_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'console_audit is append-only';
end
$$;
create trigger console_audit_no_update_or_delete before update or delete on console_audit
  for each row execute function console_audit_refuse_change();
create trigger console_audit_no_truncate before truncate on console_audit
  for each statement execute function console_audit_refuse_change();
