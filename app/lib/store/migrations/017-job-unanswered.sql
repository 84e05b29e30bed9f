-- Issue 35: a job keeps how many of its items are unanswered. The status line's count of unfinished
-- jobs (read on every action), home, /jobs and /metrics found them by reading every item of every
-- job ever stored, and the partial index below did not spare them that; each claim and answer
-- paid for it all the same. Set when the job is written, lowered in the transaction that answers
-- its items; unfinished jobs are found from the jobs alone, and only their items are read.
alter table console_jobs add column unanswered integer;
update console_jobs j set unanswered = (select count(*) from console_job_items i where i.job_id = j.id and i.outcome is null);
alter table console_jobs alter column unanswered set not null;
alter table console_jobs add constraint console_jobs_unanswered_check check (unanswered >= 0);
create index console_jobs_unfinished on console_jobs (created_at) where unanswered > 0;
-- Nothing reads items by it now, and answering an item without it touches none of the item's
-- indexes (a heap-only update in the room migration 016 left).
drop index console_job_items_open;
