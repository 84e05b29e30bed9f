-- Four-eyes, continued (issue 19, ADR 0009). A held action is written to the trail as it is held
-- (outcome 'held', the maker and the exact request), so the trail reads hold, then approve or
-- reject, then performed.
alter table console_audit drop constraint console_audit_outcome_check;
alter table console_audit add constraint console_audit_outcome_check check (outcome in ('ok', 'refused', 'unknown', 'held'));
