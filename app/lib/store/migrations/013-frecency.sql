-- The palette's memory of each operator (issue 32): how much and how recently they chose each
-- command, kept in the store so it follows them to another browser and another console instance.
-- `score` is the uses decayed to `used_at` (app/lib/frecency.ts): each use adds 1 to what is left.
create table console_frecency (
  operator text not null,
  command text not null,
  score double precision not null,
  used_at timestamptz not null,
  primary key (operator, command)
);
