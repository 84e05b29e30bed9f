-- A job made from a file (issue 34): the file's lines as previewed (each with what it named, the
-- account it resolved to, its amount and remark, or why it was left out), kept for the job's
-- result CSV, which lists every line of the file with its outcome.
alter table console_jobs add column file_lines jsonb;
