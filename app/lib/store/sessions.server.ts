/**
 * Console sessions in the console's store (issue 30, ADR 0010): one row per sign-in, found on every
 * request by the hash of the cookie's secret. Times are the database's (`now()`), so console
 * instances whose clocks differ still agree on when a session went idle or expired.
 */
import { sql, type Selectable } from "kysely";
import type { ConsoleDatabase, ConsoleStore } from "./schema";

export type SessionRow = Selectable<ConsoleDatabase["console_sessions"]>;

/** A new session as sign-in writes it. */
export type NewSession = Pick<SessionRow, "id" | "secret_hash" | "operator" | "role" | "factor" | "address" | "browser" | "upstream">;

export async function insertSession(store: ConsoleStore, session: NewSession): Promise<void> {
  await store.insertInto("console_sessions").values(session).execute();
}

/** The session whose cookie secret hashes to `secretHash`, with the database's clock; ended ones too. */
export const findSession = (store: ConsoleStore, secretHash: string) =>
  store
    .selectFrom("console_sessions")
    .selectAll()
    .select(sql<Date>`now()`.as("now"))
    .where("secret_hash", "=", secretHash)
    .executeTakeFirst();

/** Records that the session was used now (the idle timeout counts from here). */
export async function touchSession(store: ConsoleStore, id: string): Promise<void> {
  await store.updateTable("console_sessions").set({ last_seen_at: sql<Date>`now()` }).where("id", "=", id).execute();
}

/** Records a second factor given now (re-authentication counts from here). */
export async function touchFactor(store: ConsoleStore, id: string, factor: string): Promise<void> {
  await store.updateTable("console_sessions").set({ factor, factor_at: sql<Date>`now()` }).where("id", "=", id).where("ended_at", "is", null).execute();
}

/** Which open sessions to end: one by id, or all of an operator's but one. */
export type SessionsToEnd = { id: string } | { operator: string; except?: string };

/** Ends open sessions for good; answers the rows it ended (each exactly once, however many instances race). */
export function endSessions(store: ConsoleStore, which: SessionsToEnd, reason: string): Promise<SessionRow[]> {
  let update = store
    .updateTable("console_sessions")
    .set({ ended_at: sql<Date>`now()`, ended_reason: reason })
    .where("ended_at", "is", null);
  if ("id" in which) update = update.where("id", "=", which.id);
  else {
    update = update.where("operator", "=", which.operator);
    if (which.except) update = update.where("id", "!=", which.except);
  }
  return update.returningAll().execute();
}

/** Open sessions (not ended, not idle, not expired): one operator's, or everyone's; newest first. */
export function listOpenSessions(store: ConsoleStore, operator: string | null, limits: { idleSeconds: number; lifetimeSeconds: number }) {
  let query = store
    .selectFrom("console_sessions")
    .select(["id", "operator", "role", "factor", "created_at", "last_seen_at", "address", "browser"])
    .where("ended_at", "is", null)
    .where("last_seen_at", ">", sql<Date>`now() - make_interval(secs => ${limits.idleSeconds})`)
    .where("created_at", ">", sql<Date>`now() - make_interval(secs => ${limits.lifetimeSeconds})`)
    .orderBy("created_at", "desc");
  if (operator !== null) query = query.where("operator", "=", operator);
  return query.execute();
}
export type OpenSession = Awaited<ReturnType<typeof listOpenSessions>>[number];

/** The role `operator` last signed in with, or null for one never seen. */
export async function lastRoleOf(store: ConsoleStore, operator: string): Promise<number | null> {
  const row = await store.selectFrom("console_sessions").select("role").where("operator", "=", operator).orderBy("created_at", "desc").limit(1).executeTakeFirst();
  return row?.role ?? null;
}

/** Every role's allowed ranges (a role absent: anywhere). */
export async function readAllowlist(store: ConsoleStore): Promise<Map<number, string[]>> {
  const rows = await store.selectFrom("console_allowlist").selectAll().execute();
  return new Map(rows.map((row) => [row.role, row.ranges]));
}

/** Replaces every role's ranges at once; a role given no ranges may sign in from anywhere. */
export async function saveAllowlist(store: ConsoleStore, allowlist: ReadonlyMap<number, readonly string[]>): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await trx.deleteFrom("console_allowlist").execute();
    const rows = [...allowlist].filter(([, ranges]) => ranges.length > 0).map(([role, ranges]) => ({ role, ranges: JSON.stringify(ranges) }));
    if (rows.length > 0) await trx.insertInto("console_allowlist").values(rows).execute();
  });
}
