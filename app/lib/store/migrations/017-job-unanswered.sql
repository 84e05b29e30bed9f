-- Issue 35: a job keeps how many of its items are unanswered. The status line's count of unfinished
-- jobs (read on every action), home, /jobs and /metrics found them by reading every item of every
-- job ever stored, and the partial index below did not spare them that; each claim and answer
-- paid for it all the same. The count is kept by the store itself, whatever writes the items (a
-- console of the previous release too, during a rolling deploy, or a hand in the database), once
-- per statement.
-- No item is written between the count below and the triggers that keep it (another console may be running).
lock table console_jobs, console_job_items in exclusive mode;
alter table console_jobs add column unanswered integer not null default 0;
update console_jobs j set unanswered = (select count(*) from console_job_items i where i.job_id = j.id and i.outcome is null);
alter table console_jobs add constraint console_jobs_unanswered_check check (unanswered >= 0);
create index console_jobs_unfinished on console_jobs (created_at) where unanswered > 0;

-- Each statement changes its jobs' counts by the unanswered items it adds and those it takes away.
-- Items inserted (the trigger's argument 1) or deleted (-1): their unanswered ones, per job.
create function console_job_items_count_rows() returns trigger language plpgsql as $$
begin
  update console_jobs j set unanswered = j.unanswered + tg_argv[0]::integer * change.items
  from (select job_id, count(*) as items from changed_items where outcome is null group by job_id) change
  where j.id = change.job_id;
  return null;
end
$$;
create trigger console_job_items_count_insert after insert on console_job_items
  referencing new table as changed_items for each statement execute function console_job_items_count_rows('1');
create trigger console_job_items_count_delete after delete on console_job_items
  referencing old table as changed_items for each statement execute function console_job_items_count_rows('-1');

-- An update nets its unanswered items out per job: those it answers less those it makes unanswered again.
create function console_job_items_count_updated() returns trigger language plpgsql as $$
begin
  update console_jobs j set unanswered = j.unanswered + change.items
  from (
    select job_id, sum(items) as items
    from (
      select job_id, count(*) as items from new_items where outcome is null group by job_id
      union all
      select job_id, -count(*) from old_items where outcome is null group by job_id
    ) counted
    group by job_id
    having sum(items) <> 0
  ) change
  where j.id = change.job_id;
  return null;
end
$$;
create trigger console_job_items_count_update after update on console_job_items
  referencing old table as old_items new table as new_items for each statement execute function console_job_items_count_updated();

-- Nothing reads items by it now, and answering an item without it touches none of the item's
-- indexes (a heap-only update in the room migration 016 left).
drop index console_job_items_open;
