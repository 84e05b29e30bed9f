import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import type { LedgerAccountKind, TransferKind } from "../../db/schema.js";

/** A balance-holding account: a row of admins (the house or a partner), of users, or of system_accounts. */
export type AccountRef = { kind: LedgerAccountKind; id: bigint };

export type LockedAccount = AccountRef & { balance: bigint; isHouse: boolean };

const TABLES = { admin: "admins", user: "users", system: "system_accounts" } as const;
const tableOf = (kind: LedgerAccountKind) => TABLES[kind];

/**
 * Locks the accounts' rows (SELECT … FOR UPDATE) one at a time in a fixed order (kind,
 * then id), so two transfers over the same pair always queue and never deadlock.
 */
export async function lockAccounts(trx: Db, refs: AccountRef[]): Promise<LockedAccount[]> {
  const ordered = [...refs].sort((a, b) => a.kind.localeCompare(b.kind) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const locked = new Map<string, LockedAccount>();
  for (const ref of ordered) {
    const row = await trx
      .selectFrom(tableOf(ref.kind))
      .select([sql<bigint>`balance`.as("balance"), sql<boolean>`${sql.raw(ref.kind === "admin" ? "role = 1" : "false")}`.as("is_house")])
      .where("id", "=", ref.id)
      .forUpdate()
      .executeTakeFirst();
    if (row) locked.set(`${ref.kind}:${ref.id}`, { ...ref, balance: row.balance, isHouse: row.is_house });
  }
  return refs.map((ref) => locked.get(`${ref.kind}:${ref.id}`)).filter((account) => account !== undefined);
}

export async function setBalance(trx: Db, ref: AccountRef, balance: bigint): Promise<void> {
  await trx.updateTable(tableOf(ref.kind)).set({ balance }).where("id", "=", ref.id).execute();
}

export async function insertTransfer(
  trx: Db,
  transfer: { kind: TransferKind; actorId: bigint; requestId?: string; remark?: string },
): Promise<bigint> {
  const row = await trx
    .insertInto("ledger_transfers")
    .values({ kind: transfer.kind, actor_id: transfer.actorId, request_id: transfer.requestId ?? null, remark: transfer.remark ?? "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export type Leg = AccountRef & { amount: bigint; balanceAfter: bigint };

export async function insertLegs(trx: Db, transferId: bigint, legs: Leg[]): Promise<void> {
  await trx
    .insertInto("ledger_entries")
    .values(
      legs.map((leg) => ({
        transfer_id: transferId,
        account_kind: leg.kind,
        account_id: leg.id,
        amount: leg.amount,
        balance_after: leg.balanceAfter,
      })),
    )
    .execute();
}

/** A system account's id by name (migration 003 creates them). */
export async function findSystemAccountId(db: Db, name: string): Promise<bigint> {
  const row = await db.selectFrom("system_accounts").select("id").where("name", "=", name).executeTakeFirstOrThrow();
  return row.id;
}

/** The transfer an actor made under a request id, with its legs; undefined when there is none. */
export async function findTransferByRequest(db: Db, actorId: bigint, requestId: string) {
  const transfer = await db
    .selectFrom("ledger_transfers")
    .select(["id", "kind"])
    .where("actor_id", "=", actorId)
    .where("request_id", "=", requestId)
    .executeTakeFirst();
  if (!transfer) return undefined;
  const legs = await db
    .selectFrom("ledger_entries")
    .select(["account_kind as kind", "account_id as id", "amount", "balance_after as balanceAfter"])
    .where("transfer_id", "=", transfer.id)
    .execute();
  return { kind: transfer.kind, legs };
}
