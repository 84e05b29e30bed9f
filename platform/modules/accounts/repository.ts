import { sql, type Compilable, type Expression, type SqlBool } from "kysely";
import { SEARCH_COUNT_LIMIT } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { Slice } from "../../validation/schemas.js";
import { inOrder, inPage } from "../../db/paging.js";
import type { AccountKind, Flags, Shares } from "../../db/schema.js";

/**
 * `column IN (the partner tree under rootId, root included)`: a recursive walk down the
 * partners, evaluated once per query. Partners are few next to users, so this stays cheap.
 */
export function inSubtree(column: string, rootId: bigint): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} in (
    with recursive tree(id) as (
      select ${rootId}::bigint
      union all
      select a.id from admins a join tree t on a.parent_id = t.id where a.role = 3
    )
    select id from tree)`;
}

/** True when admin `id` is `rootId` or a partner under it. */
export async function isInSubtree(db: Db, rootId: bigint, id: bigint): Promise<boolean> {
  const row = await db
    .selectFrom("admins")
    .select("id")
    .where("id", "=", id)
    .where(inSubtree("id", rootId))
    .executeTakeFirst();
  return row !== undefined;
}

export type ListFilter = {
  /** A partner caller: only its subtree. Null for the super admin and staff. */
  within: bigint | null;
  /** Only the direct children of this admin. */
  parent?: bigint;
  /** Case-insensitive substring of the username. */
  search?: string;
  /** Only these usernames, lowercased (exact). */
  usernames?: string[];
  /** Only these ids. */
  ids?: bigint[];
};

export type SortKey = "_id" | "username" | "balance" | "bonus" | "createdAt";
export type ListOrder = { by: SortKey; ascending: boolean };

// Partners have no bonus: their bonus is 0, so that order is the id tie-break alone.
const USER_SORT = { _id: "u.id", username: "u.username_key", balance: "u.balance", bonus: "u.bonus", createdAt: "u.created_at" } as const;
const PARTNER_SORT = { _id: "a.id", username: "a.username_key", balance: "a.balance", bonus: "a.id", createdAt: "a.created_at" } as const;

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column IN (ids)`, false for no ids (SQL has no empty IN list). */
const anyOf = (column: string, ids: readonly bigint[]): Expression<SqlBool> =>
  ids.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids)})`;

function users(db: Db, filter: ListFilter) {
  let query = db.selectFrom("users as u");
  if (filter.within !== null) query = query.where(inSubtree("u.parent_id", filter.within));
  if (filter.parent !== undefined) query = query.where("u.parent_id", "=", filter.parent);
  if (filter.search) query = query.where("u.username_key", "like", containing(filter.search));
  if (filter.usernames) query = query.where("u.username_key", "in", filter.usernames);
  if (filter.ids) query = query.where(anyOf("u.id", filter.ids));
  return query;
}

function partners(db: Db, filter: ListFilter) {
  let query = db.selectFrom("admins as a").where("a.role", "=", 3);
  if (filter.within !== null) query = query.where(inSubtree("a.id", filter.within)).where("a.id", "!=", filter.within);
  if (filter.parent !== undefined) query = query.where("a.parent_id", "=", filter.parent);
  if (filter.search) query = query.where("a.username_key", "like", containing(filter.search));
  if (filter.usernames) query = query.where("a.username_key", "in", filter.usernames);
  if (filter.ids) query = query.where(anyOf("a.id", filter.ids));
  return query;
}

const USER_ROW = [
  "u.id",
  "u.username",
  "u.mob_no",
  "u.password_sealed",
  "u.balance",
  "u.bonus",
  "u.created_at",
  "u.login_enabled",
  "u.bet_enabled",
  "p.id as parent_id",
  "p.username as parent_username",
] as const;

const PARTNER_ROW = [
  "a.id",
  "a.username",
  "a.password_sealed",
  "a.balance",
  "a.created_at",
  "a.login_enabled",
  "a.bet_enabled",
  "r.name as role_name",
  "p.id as parent_id",
  "p.username as parent_username",
] as const;

/**
 * A search's matches counted up to `atMost + 1` (more says only "more": a substring that matches
 * a tenth of a million users would read them all to count them). Answers the count.
 */
async function countUpTo(db: Db, matches: (limit: number) => Compilable, atMost: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from (${matches(atMost + 1)}) as m`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * With a search, its matches up to SEARCH_COUNT_LIMIT + 1; without one, from the kept counts per
 * parent (migration 013): a few rows, however many users. A lookup by name or id counts its matches.
 */
export async function countUsers(db: Db, filter: ListFilter): Promise<number> {
  // A lookup by name or id matches a few hundred at most: counted by their index.
  if (filter.usernames || filter.ids) {
    const row = await users(db, filter).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  }
  if (filter.search) return countUpTo(db, (limit) => users(db, filter).select(sql`1`.as("one")).limit(limit), SEARCH_COUNT_LIMIT);
  let kept = db.selectFrom("user_counts as c").select(sql<string>`coalesce(sum(c.n), 0)`.as("n"));
  if (filter.within !== null) kept = kept.where(inSubtree("c.parent_id", filter.within));
  if (filter.parent !== undefined) kept = kept.where("c.parent_id", "=", filter.parent);
  const row = await kept.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The panels matching (a search's up to SEARCH_COUNT_LIMIT + 1, as users'). */
export async function countPartners(db: Db, filter: ListFilter): Promise<number> {
  if (filter.search) return countUpTo(db, (limit) => partners(db, filter).select(sql`1`.as("one")).limit(limit), SEARCH_COUNT_LIMIT);
  const row = await partners(db, filter).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One page of users. The page's ids come first from the sort index alone (an index-only
 * scan skips the offset without reading rows), then only those rows are read: a deep page
 * costs a few milliseconds instead of reading every row before it.
 */
export function listUsers(db: Db, filter: ListFilter, order: ListOrder, slice: Slice) {
  const columns = [USER_SORT[order.by], "u.id"];
  const page = users(db, filter).select("u.id").$call(inPage(columns, order.ascending, slice));
  return db
    .selectFrom(page.as("k"))
    .innerJoin("users as u", "u.id", "k.id")
    .innerJoin("admins as p", "p.id", "u.parent_id")
    .select(USER_ROW)
    .$call(inOrder(columns, order.ascending))
    .execute();
}

/** Users, or partners, with the columns of a list row. */
const userRows = (db: Db, filter: ListFilter) => users(db, filter).innerJoin("admins as p", "p.id", "u.parent_id").select(USER_ROW);

const partnerRows = (db: Db, filter: ListFilter) =>
  partners(db, filter).innerJoin("partner_roles as r", "r.id", "a.partner_role_id").innerJoin("admins as p", "p.id", "a.parent_id").select(PARTNER_ROW);

export function listPartners(db: Db, filter: ListFilter, order: ListOrder, slice: Slice) {
  return partnerRows(db, filter).$call(inPage([PARTNER_SORT[order.by], "a.id"], order.ascending, slice)).execute();
}

export type UserListRow = Awaited<ReturnType<typeof listUsers>>[number];
export type PartnerListRow = Awaited<ReturnType<typeof listPartners>>[number];

/** Every matching row after `afterId` in id order, `limit` at a time: the CSV export's batches. */
export function usersAfter(db: Db, filter: ListFilter, afterId: bigint, limit: number) {
  return userRows(db, filter).where("u.id", ">", afterId).orderBy("u.id").limit(limit).execute();
}

export function partnersAfter(db: Db, filter: ListFilter, afterId: bigint, limit: number) {
  return partnerRows(db, filter).where("a.id", ">", afterId).orderBy("a.id").limit(limit).execute();
}

export function findPartnerRow(db: Db, id: bigint) {
  return partnerRows(db, { within: null }).where("a.id", "=", id).executeTakeFirst();
}

/** A user or partner with what the desk's checks need, or undefined. */
export type Target = {
  kind: AccountKind;
  id: bigint;
  /** The admin whose subtree holds it: a user's parent, or the partner itself. */
  anchor: bigint;
  permissions: Flags;
  login: boolean;
  bet: boolean;
};

export async function findTarget(db: Db, kind: AccountKind, id: bigint): Promise<Target | undefined> {
  const row =
    kind === "user"
      ? await db
          .selectFrom("users")
          .select(["id", "parent_id as anchor", "permissions", "login_enabled", "bet_enabled"])
          .where("id", "=", id)
          .executeTakeFirst()
      : await db
          .selectFrom("admins")
          .select(["id", "id as anchor", "permissions", "login_enabled", "bet_enabled"])
          .where("id", "=", id)
          .where("role", "=", 3)
          .executeTakeFirst();
  return row && { kind, id: row.id, anchor: row.anchor, permissions: row.permissions, login: row.login_enabled, bet: row.bet_enabled };
}

/** The super admin's account: the house that funds deposits. */
export async function findHouseId(db: Db): Promise<bigint> {
  const row = await db.selectFrom("admins").select("id").where("role", "=", 1).orderBy("id").executeTakeFirstOrThrow();
  return row.id;
}

/** True when an admin or a user already has `username`, compared case-insensitively. */
export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const key = username.toLowerCase();
  // Serialises creations of the same name across both tables until the transaction ends.
  await sql`select pg_advisory_xact_lock(hashtext(${`betdesk.username:${key}`}))`.execute(db);
  const row = await db
    .selectFrom("admins")
    .select("id")
    .where("username_key", "=", key)
    .unionAll(db.selectFrom("users").select("id").where("username_key", "=", key))
    .executeTakeFirst();
  return row !== undefined;
}

export type NewAccount = {
  username: string;
  passwordHash: string;
  passwordSealed: string;
  mobNo: string | null;
  permissions: Flags;
  parentId: bigint;
};

export async function insertUser(db: Db, account: NewAccount): Promise<bigint> {
  const row = await db
    .insertInto("users")
    .values({
      username: account.username,
      password_hash: account.passwordHash,
      password_sealed: account.passwordSealed,
      mob_no: account.mobNo,
      permissions: JSON.stringify(account.permissions),
      parent_id: account.parentId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPartner(db: Db, account: NewAccount & { roleId: bigint; share: Shares }): Promise<bigint> {
  const row = await db
    .insertInto("admins")
    .values({
      username: account.username,
      password_hash: account.passwordHash,
      password_sealed: account.passwordSealed,
      role: 3,
      permissions: JSON.stringify(account.permissions),
      partner_role_id: account.roleId,
      parent_id: account.parentId,
      share: JSON.stringify(account.share),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function listPartnerRoles(db: Db) {
  return db.selectFrom("partner_roles").select(["id", "name"]).orderBy("level").execute();
}

/** The partner-role tier of `roleId` (1 is the highest), or undefined when there is no such role. */
export async function partnerRoleLevel(db: Db, roleId: bigint): Promise<number | undefined> {
  const row = await db.selectFrom("partner_roles").select("level").where("id", "=", roleId).executeTakeFirst();
  return row?.level;
}

export async function updateAccountPassword(
  db: Db,
  target: { kind: AccountKind; id: bigint },
  password: { hash: string; sealed: string },
): Promise<void> {
  await db
    .updateTable(target.kind === "admin" ? "admins" : "users")
    .set({ password_hash: password.hash, password_sealed: password.sealed, demo_password: false })
    .where("id", "=", target.id)
    .execute();
}

export async function updateSwitches(
  db: Db,
  target: { kind: AccountKind; id: bigint },
  settings: { permissions: Flags; login: boolean; bet: boolean },
): Promise<void> {
  await db
    .updateTable(target.kind === "admin" ? "admins" : "users")
    .set({ permissions: JSON.stringify(settings.permissions), login_enabled: settings.login, bet_enabled: settings.bet })
    .where("id", "=", target.id)
    .execute();
}

/** Ends every live session of a partner or an end user. */
export async function revokeSessions(db: Db, target: { kind: AccountKind; id: bigint }): Promise<void> {
  const now = new Date();
  if (target.kind === "admin") {
    await db.updateTable("admin_sessions").set({ revoked_at: now }).where("admin_id", "=", target.id).where("revoked_at", "is", null).execute();
  } else {
    await db.updateTable("user_sessions").set({ revoked_at: now }).where("user_id", "=", target.id).where("revoked_at", "is", null).execute();
  }
}

export const LOGIN_LOG_LIMIT = 200;

export function listLoginLogs(db: Db, target: { kind: AccountKind; id: bigint }) {
  return db
    .selectFrom("login_logs")
    .select(["ip", "user_agent", "created_at"])
    .where("account_kind", "=", target.kind)
    .where("account_id", "=", target.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(LOGIN_LOG_LIMIT)
    .execute();
}
