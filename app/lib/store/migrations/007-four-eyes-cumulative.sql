-- Four-eyes over a rolling window (issue 29, ADR 0009): what one account received or paid, and
-- what one operator moved, through manual credits, debits and approved requests without a second
-- operator, within the last cumulative_hours. The action that takes either total above its amount
-- waits for a second operator; null is off.
alter table console_four_eyes add column account_cumulative_above double precision;
alter table console_four_eyes add column operator_cumulative_above double precision;
alter table console_four_eyes add column cumulative_hours integer not null default 24 check (cumulative_hours > 0);

-- Each such action as it is let through, written before its call goes upstream under the lock of
-- the thresholds' row, so two at once on any number of instances are counted one after the other
-- and cannot both slip under. A call the API refused (nothing moved) is marked and not counted.
create table console_four_eyes_moves (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  operator text not null,
  -- 'user <id>' or 'panel <id>'.
  account text not null,
  call text not null,
  amount double precision not null,
  -- The transfer's requestId, or the decided request's id.
  reference text not null,
  refused boolean not null default false
);
create index console_four_eyes_moves_account on console_four_eyes_moves (account, at);
create index console_four_eyes_moves_operator on console_four_eyes_moves (operator, at);
