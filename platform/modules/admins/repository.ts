import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import type { Admin } from "../../db/schema.js";

/** An admin without its password hash: what a signed-in request carries. */
export type AdminAccount = Omit<Admin, "password_hash">;

export const ACCOUNT_COLUMNS = [
  "id",
  "username",
  "role",
  "permissions",
  "partner_role_id",
  "parent_id",
  "share",
  "balance",
  "demo_password",
  "created_at",
] as const satisfies readonly (keyof AdminAccount)[];

/** Usernames are unique case-insensitively (admins_username_key). */
export function findAdminByUsername(db: Db, username: string): Promise<Admin | undefined> {
  return db
    .selectFrom("admins")
    .selectAll()
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

export async function findPasswordHash(db: Db, id: bigint): Promise<string | undefined> {
  const row = await db.selectFrom("admins").select("password_hash").where("id", "=", id).executeTakeFirst();
  return row?.password_hash;
}

/** A chosen password replaces a seeded one, so the account then works in production too. */
export async function updatePassword(db: Db, id: bigint, passwordHash: string): Promise<void> {
  await db
    .updateTable("admins")
    .set({ password_hash: passwordHash, demo_password: false })
    .where("id", "=", id)
    .execute();
}

export function listPartnerRoles(db: Db) {
  return db.selectFrom("partner_roles").select(["id", "name"]).orderBy("level").execute();
}
