/** The console store's tables as Kysely reads them (migrations/NNN-*.sql create them). */
import type { ColumnType, Kysely } from "kysely";

export type AuditOutcome = "ok" | "refused" | "unknown";

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
  };
  console_audit_head: { only_row: ColumnType<boolean, never, never>; seq: bigint; hash: string };
};

export type ConsoleStore = Kysely<ConsoleDatabase>;
