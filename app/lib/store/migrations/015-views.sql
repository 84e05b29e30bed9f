-- Saved views of the list screens (issue 32): per operator and screen, a named search string
-- (filters, sort, `cols`, `widths`; app/lib/list-view.ts), kept in the store so it follows the
-- operator to another browser and another console instance. At most one default a screen.
create table console_views (
  operator text not null,
  screen text not null,
  name text not null,
  query text not null,
  is_default boolean not null default false,
  saved_at timestamptz not null default now(),
  primary key (operator, screen, name)
);
create unique index console_views_one_default on console_views (operator, screen) where is_default;
