-- Four-eyes on deposit and withdrawal decisions (issue 19, ADR 0009): approving a request above
-- this amount waits for a second operator; null is off.
alter table console_four_eyes add column decision_above double precision;
