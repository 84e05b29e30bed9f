import type { Db } from "../../db/index.js";
import type { AdminSession } from "../../db/schema.js";
import { ACCOUNT_COLUMNS, type AdminAccount } from "../admins/repository.js";

/** What a request carries of its session. */
export type SessionRef = { id: bigint; udid: string };

export type NewSession = {
  adminId: bigint;
  udid: string;
  tokenHash: string;
  expiresAt: Date;
  ip: string;
  userAgent: string;
};

export async function createSession(db: Db, session: NewSession): Promise<void> {
  await db
    .insertInto("admin_sessions")
    .values({
      admin_id: session.adminId,
      udid: session.udid,
      token_hash: session.tokenHash,
      expires_at: session.expiresAt,
      ip: session.ip,
      user_agent: session.userAgent,
    })
    .execute();
}

/** The session of a token, whatever its state (revoked and expired ones included). */
export function findSessionByTokenHash(db: Db, tokenHash: string): Promise<AdminSession | undefined> {
  return db.selectFrom("admin_sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}

/** The admin behind a token whose session is neither revoked nor expired, unless the admin was removed. */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
): Promise<{ admin: AdminAccount; session: SessionRef } | undefined> {
  const row = await db
    .selectFrom("admin_sessions as s")
    .innerJoin("admins as a", "a.id", "s.admin_id")
    .select(ACCOUNT_COLUMNS.map((column) => `a.${column}` as const))
    .select(["s.id as session_id", "s.udid as session_udid"])
    .where("s.token_hash", "=", tokenHash)
    .where("s.revoked_at", "is", null)
    .where("s.expires_at", ">", new Date())
    // A sign-in racing the account's removal may leave a session; the account's state decides.
    .where("a.removed_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, session_udid, ...admin } = row;
  return { admin, session: { id: session_id, udid: session_udid } };
}

export async function revokeSession(db: Db, sessionId: bigint): Promise<void> {
  await db
    .updateTable("admin_sessions")
    .set({ revoked_at: new Date() })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .execute();
}

/** Revokes every live session of an admin but `keepSessionId` (none kept when it is omitted). */
export async function revokeOtherSessions(db: Db, adminId: bigint, keepSessionId?: bigint): Promise<void> {
  let update = db
    .updateTable("admin_sessions")
    .set({ revoked_at: new Date() })
    .where("admin_id", "=", adminId)
    .where("revoked_at", "is", null);
  if (keepSessionId !== undefined) update = update.where("id", "!=", keepSessionId);
  await update.execute();
}

export async function recordLogin(
  db: Db,
  entry: { kind: "admin" | "user"; accountId: bigint; ip: string; userAgent: string },
): Promise<void> {
  await db
    .insertInto("login_logs")
    .values({ account_kind: entry.kind, account_id: entry.accountId, ip: entry.ip, user_agent: entry.userAgent })
    .execute();
}
