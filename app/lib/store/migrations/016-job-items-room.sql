-- Issue 35: each item of a job is updated twice after it is written (claimed when sent, then answered).
-- Half of each page is left free so those updates stay on the item's page without touching its
-- indexes (a heap-only update): a settlement job's claims cost a third less on PGlite. Existing
-- pages keep their rows as they are; new items are written with the room.
alter table console_job_items set (fillfactor = 50);
