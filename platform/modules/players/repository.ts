import type { Db } from "../../db/index.js";

export function findUserByUsername(db: Db, username: string) {
  return db
    .selectFrom("users")
    .select(["id", "password_hash", "demo_password", "login_enabled"])
    .where("username_key", "=", username.toLowerCase())
    .executeTakeFirst();
}

export async function createUserSession(
  db: Db,
  session: { userId: bigint; tokenHash: string; expiresAt: Date; ip: string; userAgent: string },
): Promise<void> {
  await db
    .insertInto("user_sessions")
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      expires_at: session.expiresAt,
      ip: session.ip,
      user_agent: session.userAgent,
    })
    .execute();
}

/** The end user behind a live (neither revoked nor expired) session token. */
export function findLiveUser(db: Db, tokenHash: string) {
  return db
    .selectFrom("user_sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["u.id", "u.username", "u.balance", "u.bonus"])
    .where("s.token_hash", "=", tokenHash)
    .where("s.revoked_at", "is", null)
    .where("s.expires_at", ">", new Date())
    .where("u.login_enabled", "=", true)
    .executeTakeFirst();
}

export type Player = NonNullable<Awaited<ReturnType<typeof findLiveUser>>>;
