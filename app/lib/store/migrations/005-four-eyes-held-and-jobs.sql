-- Four-eyes, continued (issue 19, ADR 0009). A held action is written to the trail as it is held
-- (outcome 'held', the maker and the exact request), so the trail reads hold, then approve or
-- reject, then performed.
alter table console_audit drop constraint console_audit_outcome_check;
alter table console_audit add constraint console_audit_outcome_check check (outcome in ('ok', 'refused', 'unknown', 'held'));

-- A settlement job above either of these (its number of bets, or the total of their stakes) waits
-- for a second operator; null is off.
alter table console_four_eyes add column job_items_above integer;
alter table console_four_eyes add column job_total_above double precision;
