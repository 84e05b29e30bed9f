/** The admin account core: what a signed-in admin is, found by name or id, and its password. */
import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import type { Admin } from "../../db/schema.js";
import type { StoredPassword } from "../../security/reveal.js";

/** An admin without its password (hash or sealed copy): what a signed-in request carries. */
export type AdminAccount = Omit<Admin, "password_hash" | "password_sealed" | "username_key" | "removed_at">;

export const ACCOUNT_COLUMNS = [
  "id",
  "username",
  "role",
  "permissions",
  "partner_role_id",
  "parent_id",
  "share",
  "balance",
  "login_enabled",
  "bet_enabled",
  "demo_password",
  "created_at",
] as const satisfies readonly (keyof AdminAccount)[];

/** Usernames are unique case-insensitively (admins_username_key). A removed account is not found. */
export function findAdminByUsername(db: Db, username: string): Promise<Admin | undefined> {
  return db
    .selectFrom("admins")
    .selectAll()
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .where("removed_at", "is", null)
    .executeTakeFirst();
}

export async function findPasswordHash(db: Db, id: bigint): Promise<string | undefined> {
  const row = await db.selectFrom("admins").select("password_hash").where("id", "=", id).executeTakeFirst();
  return row?.password_hash;
}

/** A chosen password replaces a seeded one, so the account then works in production too. */
export async function updatePassword(db: Db, id: bigint, password: StoredPassword): Promise<void> {
  await db
    .updateTable("admins")
    .set({ password_hash: password.hash, password_sealed: password.sealed, demo_password: false })
    .where("id", "=", id)
    .execute();
}
