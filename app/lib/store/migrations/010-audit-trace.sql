-- Issue 31: an entry written while serving an operator's request names that request's W3C trace
-- id, the one its upstream calls carried in `traceparent` and both programs' log lines show. Null
-- for entries written outside a request (and before this column); the chain's hash covers it only
-- when it is set, so earlier entries still verify.
alter table console_audit add column trace_id text;
