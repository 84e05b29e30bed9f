-- A job item found, when its job is resumed, done otherwise by someone else (issue 29): a bet
-- settled elsewhere with another outcome is a conflict, counted apart from the job's own work.
alter table console_job_items drop constraint console_job_items_outcome_check;
alter table console_job_items add constraint console_job_items_outcome_check check (outcome in ('done', 'refused', 'unknown', 'conflict'));
