-- Issue 19: an entry written while performing an item of a stored job names that job, so the trail
-- shows each item's call once under its job. Null for every other entry; the chain's hash covers
-- the column only when it is set, so entries written before it still verify.
alter table console_audit add column job_id text;
create index console_audit_job on console_audit (job_id, seq) where job_id is not null;
