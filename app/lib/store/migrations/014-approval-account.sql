-- The account a held action acts on, by username as the maker's form named it (issue 32): the
-- approval keeps the call's exact body, which names the account by id only, so the checker's
-- audit entry names it as the maker's held entry did. Null for approvals held before, and for
-- calls whose body names its account itself.
alter table console_approvals add column account_name text;
