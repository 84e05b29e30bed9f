/** The console store's tables as Kysely reads them (migrations/NNN-*.sql create them). */
import type { ColumnType, Kysely, RawBuilder } from "kysely";

/** A timestamp the database computes (`now() + …`). */
type RawDate = RawBuilder<Date>;

/** What performing a call answered: ok, refused (nothing was done), unknown (it may have been done). */
export type PerformedOutcome = "ok" | "refused" | "unknown";

/** An audit entry's outcome: a performed call's, or held (four-eyes kept it for a second operator). */
export const AUDIT_OUTCOMES = ["ok", "refused", "unknown", "held"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * A job item's answer: done, refused (with the API's message), unknown (no answer: it may have
 * been applied), or conflict (found done otherwise by someone else when resumed: never the job's work).
 */
export type JobOutcome = "done" | "refused" | "unknown" | "conflict";

export type ConsoleDatabase = {
  console_audit: {
    seq: bigint;
    at: Date;
    operator: string;
    operator_role: number | null;
    session: string | null;
    call: string;
    kind: string;
    account_id: string | null;
    account_name: string | null;
    amount: number | null;
    balance_before: number | null;
    balance_after: number | null;
    outcome: AuditOutcome;
    status: number | null;
    message: string;
    /** Written as JSON text, read back parsed. */
    request: ColumnType<unknown, string, never>;
    answer: ColumnType<unknown, string | null, never>;
    prev_hash: string;
    hash: string;
    /** The stored job whose item this entry performed (migration 006), or null. */
    job_id: string | null;
    /** The W3C trace id of the request that wrote it (migration 010), or null. */
    trace_id: string | null;
  };
  console_audit_head: { only_row: ColumnType<boolean, never, never>; seq: bigint; hash: string };
  /** The palette's frecency per operator and command (migration 013, issue 32). */
  console_frecency: { operator: string; command: string; score: number; used_at: Date };
  /** Saved views of the list screens per operator and screen (migration 015, issue 32). */
  console_views: { operator: string; screen: string; name: string; query: string; is_default: boolean; saved_at: ColumnType<Date, never, never> };
  console_jobs: {
    id: string;
    operator: string;
    kind: string;
    title: string;
    created_at: ColumnType<Date, never, never>;
    /** A job made from a file (migration 012): the file's lines as previewed, for its result CSV; null otherwise. */
    file_lines: ColumnType<unknown, string | undefined, never>;
    /** Its items with no answer yet, kept by the store's triggers as items are written and answered (migration 017): over 0 while unfinished. */
    unanswered: ColumnType<number, never, never>;
  };
  console_job_items: {
    job_id: string;
    position: number;
    key: string;
    label: string;
    request_id: string;
    payload: ColumnType<unknown, string, never>;
    sent_at: ColumnType<Date | null, never, Date | null>;
    outcome: ColumnType<JobOutcome | null, never, JobOutcome>;
    message: ColumnType<string | null, never, string>;
    answered_at: ColumnType<Date | null, never, Date>;
  };
  console_four_eyes: {
    only_row: ColumnType<boolean, never, never>;
    transfer_above: number | null;
    decision_above: number | null;
    resettle: boolean;
    expiry_hours: number;
    job_items_above: number | null;
    job_total_above: number | null;
    /** Migration 007: the rolling window's thresholds. */
    account_cumulative_above: number | null;
    operator_cumulative_above: number | null;
    cumulative_hours: number;
  };
  /** Migration 007: each action four-eyes let through while a rolling window's threshold is on. */
  console_four_eyes_moves: {
    id: ColumnType<bigint, never, never>;
    at: ColumnType<Date, never, never>;
    operator: string;
    account: string;
    call: string;
    amount: number;
    reference: string;
    refused: ColumnType<boolean, never, boolean>;
  };
  console_approvals: {
    id: string;
    call: string;
    /** Written as JSON text, read back parsed. */
    request: ColumnType<unknown, string, never>;
    summary: string;
    reason: string;
    maker: string;
    created_at: ColumnType<Date, never, never>;
    expires_at: ColumnType<Date, Date | RawDate, never>;
    status: ColumnType<"pending" | "approved" | "rejected", never, "approved" | "rejected">;
    checker: ColumnType<string | null, never, string>;
    decided_at: ColumnType<Date | null, never, Date | RawDate>;
    outcome: ColumnType<PerformedOutcome | null, never, PerformedOutcome>;
    message: ColumnType<string | null, never, string>;
    /** Migration 014: the account's username, the audit trail's label of it (issue 32). */
    account_name: ColumnType<string | null, string | null | undefined, never>;
  };
  /** Migration 008: a console session per sign-in (ADR 0010). */
  console_sessions: {
    id: string;
    secret_hash: string;
    operator: string;
    role: number;
    factor: string;
    factor_at: ColumnType<Date, Date | RawDate | undefined, Date | RawDate>;
    created_at: ColumnType<Date, never, never>;
    last_seen_at: ColumnType<Date, never, RawDate>;
    address: string;
    browser: string;
    /** The upstream token and udid, sealed (session-seal.server.ts). */
    upstream: string;
    ended_at: ColumnType<Date | null, never, RawDate>;
    ended_reason: ColumnType<string | null, never, string>;
  };
  /** Migration 008: the CIDR ranges each role may sign in from; written as JSON text, read back parsed. */
  console_allowlist: { role: number; ranges: ColumnType<string[], string, string> };
  // The second factor (migration 009, issue 30).
  console_mfa_totp: { username: string; secret_sealed: string; confirmed: boolean; last_step: bigint | null; created_at: ColumnType<Date, never, never> };
  console_mfa_recovery: { username: string; salt: string; code_hash: string; used_at: Date | null };
  console_mfa_passkeys: {
    credential_id: string;
    username: string;
    public_key: string;
    counter: bigint;
    /** Written as JSON text, read back parsed. */
    transports: ColumnType<string[], string, string>;
    name: string;
    created_at: ColumnType<Date, never, never>;
    last_used_at: Date | null;
  };
  console_mfa_attempts: { key: string; failures: number; last_failure_at: Date; locked_until: Date | null };
  console_mfa_pending: {
    id: string;
    username: string;
    role: number;
    udid: string;
    token_sealed: string;
    challenge: string | null;
    created_at: ColumnType<Date, never, never>;
    expires_at: Date;
  };
  console_mfa_challenges: { username: string; challenge: string; expires_at: Date };
  console_mfa_policy: { only_row: ColumnType<boolean, never, never>; roles: ColumnType<number[], string, string> };
};

export type ConsoleStore = Kysely<ConsoleDatabase>;
