import { sql, type RawBuilder } from "kysely";
import type { Db } from "../../db/index.js";
import type { LedgerAccountKind, TransferKind } from "../../db/schema.js";

/** A balance-holding account: a row of admins (the house or a partner), of users, or of system_accounts. */
export type AccountRef = { kind: LedgerAccountKind; id: bigint };

export type LockedAccount = AccountRef & { balance: bigint; isHouse: boolean };

const TABLES = { admin: "admins", user: "users", system: "system_accounts" } as const;
const tableOf = (kind: LedgerAccountKind) => TABLES[kind];

const KINDS = ["admin", "system", "user"] as const satisfies readonly LedgerAccountKind[];

/** `(values (…), (…))` with every value cast, so that PostgreSQL types each column alike. */
const valuesOf = (rows: readonly (readonly RawBuilder<unknown>[])[]) => sql`(values ${sql.join(rows.map((row) => sql`(${sql.join(row)})`))})`;
const bigintOf = (value: bigint) => sql`${value}::bigint`;
const textOf = (value: string | null) => sql`${value}::text`;

/**
 * Locks the accounts' rows in one statement, in a fixed order (kind, then id), so two
 * transactions over the same accounts always queue and never deadlock. FOR NO KEY UPDATE, the
 * lock a balance update takes anyway: FOR UPDATE would also wait on the KEY SHARE locks that
 * foreign keys to admins take (a decision's `decided_by`, a transfer's `actor_id`), and two
 * transactions each holding one on the house while asking for it deadlocked under concurrent
 * decisions on PostgreSQL.
 */
export async function lockAccounts(trx: Db, refs: AccountRef[]): Promise<LockedAccount[]> {
  const kinds = KINDS.filter((kind) => refs.some((ref) => ref.kind === kind));
  if (kinds.length === 0) return [];
  const locks = kinds.map((kind) => {
    const ids = [...new Set(refs.filter((ref) => ref.kind === kind).map((ref) => ref.id))];
    return sql`${sql.id(`locked_${kind}`)} as (
      select ${kind}::text as kind, id, balance, ${sql.raw(kind === "admin" ? "role = 1" : "false")} as is_house
        from ${sql.table(tableOf(kind))} where id = any(${ids}::bigint[]) order by id for no key update)`;
  });
  const { rows } = await sql<{ kind: LedgerAccountKind; id: bigint; balance: bigint; is_house: boolean }>`
    with ${sql.join(locks)} ${sql.raw(kinds.map((kind) => `select * from locked_${kind}`).join(" union all "))}`.execute(trx);
  const locked = new Map(rows.map((row) => [`${row.kind}:${row.id}`, { kind: row.kind, id: row.id, balance: row.balance, isHouse: row.is_house }]));
  return refs.map((ref) => locked.get(`${ref.kind}:${ref.id}`)).filter((account) => account !== undefined);
}

export type Leg = AccountRef & { amount: bigint; balanceAfter: bigint };
export type NewTransfer = { kind: TransferKind; actorId: bigint; requestId?: string; remark?: string; legs: Leg[] };

/**
 * Writes locked accounts' new balances and the transfers that explain them, legs included,
 * in one statement. Returns the transfers' ids in order.
 */
export async function writeTransfers(trx: Db, balances: (AccountRef & { balance: bigint })[], transfers: NewTransfer[]): Promise<bigint[]> {
  if (transfers.length === 0) return [];
  const updates = KINDS.flatMap((kind) => {
    const rows = balances.filter((account) => account.kind === kind).map((account) => [bigintOf(account.id), bigintOf(account.balance)]);
    if (rows.length === 0) return [];
    return [sql`${sql.id(`balance_${kind}`)} as (
      update ${sql.table(tableOf(kind))} as t set balance = v.balance from ${valuesOf(rows)} as v (id, balance) where t.id = v.id)`];
  });
  const heads = transfers.map((transfer, n) => [
    sql`${n}::int`,
    textOf(transfer.kind),
    bigintOf(transfer.actorId),
    textOf(transfer.requestId ?? null),
    textOf(transfer.remark ?? ""),
  ]);
  const legs = transfers.flatMap((transfer, n) =>
    transfer.legs.map((leg) => [sql`${n}::int`, textOf(leg.kind), bigintOf(leg.id), bigintOf(leg.amount), bigintOf(leg.balanceAfter)]),
  );
  // Ids drawn first, so that each leg names its transfer whatever order the insert returns rows in.
  const { rows } = await sql<{ id: bigint }>`
    with ${sql.join([
      ...updates,
      sql`ids as (select nextval(pg_get_serial_sequence('ledger_transfers', 'id')) as id, n::int as n from generate_series(0, ${transfers.length - 1}::int) as n)`,
      sql`transfers as (
        insert into ledger_transfers (id, kind, actor_id, request_id, remark) overriding system value
        select ids.id, v.kind, v.actor_id, v.request_id, v.remark from ids join ${valuesOf(heads)} as v (n, kind, actor_id, request_id, remark) using (n))`,
      sql`legs as (
        insert into ledger_entries (transfer_id, account_kind, account_id, amount, balance_after)
        select ids.id, l.kind, l.account_id, l.amount, l.balance_after from ids join ${valuesOf(legs)} as l (n, kind, account_id, amount, balance_after) using (n))`,
    ])}
    select id from ids order by n`.execute(trx);
  return rows.map((row) => row.id);
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
