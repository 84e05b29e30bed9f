-- Jobs that survive a reload or a restart (issue 19, ADR 0009): a bulk or settlement job as
-- confirmed, every item with its fixed request id (a bet's id for a settlement) and what is sent
-- for it, when it was sent, and its answer. An item sent with no answer was in flight when the
-- console stopped: a resume checks it against the API before anything is sent again.
create table console_jobs (
  id text primary key,
  operator text not null,
  kind text not null,
  title text not null,
  created_at timestamptz not null default now()
);
create index console_jobs_operator on console_jobs (operator, created_at);

create table console_job_items (
  job_id text not null references console_jobs (id),
  position integer not null,
  key text not null,
  label text not null,
  request_id text not null,
  payload jsonb not null,
  sent_at timestamptz,
  outcome text check (outcome in ('done', 'refused', 'unknown')),
  message text,
  answered_at timestamptz,
  primary key (job_id, position),
  unique (job_id, key)
);
-- The unfinished jobs: those with an item still unanswered.
create index console_job_items_open on console_job_items (job_id) where outcome is null;
