import { sql, type Expression, type SqlBool } from "kysely";
import type { RequestKind } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { Slice } from "../../validation/schemas.js";
import { inPage } from "../../db/paging.js";
import type { BankDetailsJson } from "../../db/schema.js";
import { inSubtree } from "../accounts/repository.js";

const TABLES = { deposit: "deposit_requests", withdraw: "withdraw_requests" } as const;

/** `%text%` for LIKE on lower-cased text, with LIKE's own wildcards in `text` taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type RequestFilter = {
  status?: number;
  /** A partner caller: only requests of users in its subtree. Null for the super admin and staff. */
  within: bigint | null;
  /** Only this user's requests. */
  user?: bigint;
  /** Case-insensitive substring of the username (or of a deposit's UTR). */
  search?: string;
};
export type RequestOrder = { by: "createdAt" | "amount"; ascending: boolean };

/**
 * The requests of one kind matching `filter`, as `r` joined to their users `u`. Typed as
 * deposit_requests: for withdrawals only the columns both tables share (id, user_id, amount,
 * status, created_at) are read through `r`, and their list joins withdraw_requests for the rest.
 */
function requests(db: Db, kind: RequestKind, filter: RequestFilter) {
  let query = db.selectFrom(`${TABLES[kind] as "deposit_requests"} as r`).innerJoin("users as u", "u.id", "r.user_id");
  if (filter.status !== undefined) query = query.where("r.status", "=", filter.status);
  if (filter.within !== null) query = query.where(inSubtree("u.parent_id", filter.within));
  if (filter.user !== undefined) query = query.where("r.user_id", "=", filter.user);
  if (filter.search) {
    const pattern = containing(filter.search);
    query = query.where((eb) => {
      const byName: Expression<SqlBool> = eb("u.username_key", "like", pattern);
      return kind === "deposit" ? eb.or([byName, eb(sql`lower(r.utr)`, "like", pattern)]) : byName;
    });
  }
  return query;
}

export async function countRequests(db: Db, kind: RequestKind, filter: RequestFilter): Promise<number> {
  const row = await requests(db, kind, filter).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

const SORT = { createdAt: "r.created_at", amount: "r.amount" } as const;

const pageIn = (order: RequestOrder, slice: Slice) => inPage([SORT[order.by], "r.id"], order.ascending, slice);

export function listDeposits(db: Db, filter: RequestFilter, order: RequestOrder, slice: Slice) {
  return requests(db, "deposit", filter)
    .select([
      "r.id",
      "r.user_id",
      "u.username",
      "r.amount",
      "r.bonus",
      "r.total_bonus",
      "r.coupon_code",
      "r.type",
      "r.utr",
      "r.image",
      "r.status",
      "r.created_at",
    ])
    .$call(pageIn(order, slice))
    .execute();
}

export function listWithdraws(db: Db, filter: RequestFilter, order: RequestOrder, slice: Slice) {
  return requests(db, "withdraw", filter)
    .innerJoin("withdraw_requests as w", "w.id", "r.id")
    .select(["w.id", "w.user_id", "u.username", "u.bonus", "w.amount", "w.bank", "w.remark", "w.status", "w.created_at"])
    .$call(pageIn(order, slice))
    .execute();
}

export type DepositListRow = Awaited<ReturnType<typeof listDeposits>>[number];
export type WithdrawListRow = Awaited<ReturnType<typeof listWithdraws>>[number];

/** A request with what a decision needs: its user's place in the tree and its terms. */
export function findDeposit(db: Db, id: bigint) {
  return db
    .selectFrom("deposit_requests as d")
    .innerJoin("users as u", "u.id", "d.user_id")
    .select(["d.id", "d.user_id", "u.parent_id", "d.amount", "d.type", "d.coupon_code", "d.status"])
    .where("d.id", "=", id)
    .executeTakeFirst();
}

export function findWithdraw(db: Db, id: bigint) {
  return db
    .selectFrom("withdraw_requests as w")
    .innerJoin("users as u", "u.id", "w.user_id")
    .select(["w.id", "w.user_id", "u.parent_id", "w.amount", "w.status"])
    .where("w.id", "=", id)
    .executeTakeFirst();
}

/** The parent of the user whose deposit carries `image`, or undefined. */
export async function findImageOwnerParent(db: Db, image: string): Promise<bigint | undefined> {
  const row = await db
    .selectFrom("deposit_requests as d")
    .innerJoin("users as u", "u.id", "d.user_id")
    .select("u.parent_id")
    .where("d.image", "=", image)
    .executeTakeFirst();
  return row?.parent_id;
}

/** Which of `names` some deposit request carries as its image. */
export async function referencedImages(db: Db, names: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom("deposit_requests").select("image").where("image", "in", names).execute();
  return new Set(rows.map((row) => row.image!));
}

export async function couponPercent(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom("coupons").select("bonus").where("coupon_code", "=", code).executeTakeFirst();
  return row?.bonus;
}

export async function insertDeposit(
  db: Db,
  request: { userId: bigint; amount: bigint; type: number; utr: string; couponCode: string | null; image: string | null },
) {
  return db
    .insertInto("deposit_requests")
    .values({
      user_id: request.userId,
      amount: request.amount,
      type: request.type,
      utr: request.utr,
      coupon_code: request.couponCode,
      image: request.image,
    })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}

export async function insertWithdraw(db: Db, request: { userId: bigint; amount: bigint; bank: BankDetailsJson }) {
  return db
    .insertInto("withdraw_requests")
    .values({ user_id: request.userId, amount: request.amount, bank: JSON.stringify(request.bank) })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}

export type DepositOutcome = {
  status: 1 | 2;
  decidedBy: bigint;
  usdtRate: bigint | null;
  credited: bigint;
  mainBonus: bigint;
  bonus: bigint;
  couponBonus: bigint;
  totalBonus: bigint;
};

/**
 * The decision itself: pending → decided, only if still pending. Concurrent deciders queue
 * on the row lock and re-check `status = 0`, so exactly one gets the row; the rest get false.
 */
export async function decideDeposit(trx: Db, id: bigint, outcome: DepositOutcome): Promise<boolean> {
  const row = await trx
    .updateTable("deposit_requests")
    .set({
      status: outcome.status,
      decided_by: outcome.decidedBy,
      decided_at: new Date(),
      usdt_rate: outcome.usdtRate,
      credited: outcome.credited,
      main_bonus: outcome.mainBonus,
      bonus: outcome.bonus,
      coupon_bonus: outcome.couponBonus,
      total_bonus: outcome.totalBonus,
    })
    .where("id", "=", id)
    .where("status", "=", 0)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function decideWithdraw(
  trx: Db,
  id: bigint,
  outcome: { status: 1 | 2; decidedBy: bigint; remark: string | null },
): Promise<boolean> {
  const row = await trx
    .updateTable("withdraw_requests")
    .set({ status: outcome.status, decided_by: outcome.decidedBy, decided_at: new Date(), remark: outcome.remark })
    .where("id", "=", id)
    .where("status", "=", 0)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's requests of one kind for the history page, newest first. */
export function listHistory(db: Db, kind: RequestKind, filter: RequestFilter, slice: Slice) {
  return requests(db, kind, filter)
    .select(["r.id", "r.amount", "r.status", "r.created_at", ...(kind === "deposit" ? [sql<number>`r.type`.as("type")] : [])])
    .$call(pageIn({ by: "createdAt", ascending: false }, slice))
    .execute();
}

/**
 * The live admin sessions that may see a new request of `userId`: those of every super
 * admin, of staff holding `flag`, and of the partners whose subtree holds the user (its
 * parent and that parent's partner ancestors). A revoked or expired session, or a removed
 * staff account's, is not among them.
 */
export async function watchingSessions(db: Db, userId: bigint, flag: "deposits" | "withdraws"): Promise<bigint[]> {
  const rows = await sql<{ id: bigint }>`
    with recursive chain(id, parent_id, role) as (
      select a.id, a.parent_id, a.role from admins a join users u on u.parent_id = a.id where u.id = ${userId}
      union all
      select a.id, a.parent_id, a.role from admins a join chain c on a.id = c.parent_id where c.role = 3
    ),
    watchers(id) as (
      select id from chain where role = 3
      union
      select id from admins
       where removed_at is null and (role = 1 or (role = 2 and coalesce((permissions ->> ${flag})::boolean, false)))
    )
    select s.id from admin_sessions s join watchers w on w.id = s.admin_id
     where s.revoked_at is null and s.expires_at > now()`.execute(db);
  return rows.rows.map((row) => BigInt(row.id));
}
