import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import { ROLE } from "../../../protocol/wire.js";
import type { Admin, Flags } from "../../db/schema.js";
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

export function listPartnerRoles(db: Db) {
  return db.selectFrom("partner_roles").select(["id", "name"]).orderBy("level").execute();
}

/** Staff accounts that have not been removed, oldest first. */
export function listStaffAccounts(db: Db) {
  return db
    .selectFrom("admins")
    .select(["id", "username", "permissions", "created_at"])
    .where("role", "=", ROLE.staff)
    .where("removed_at", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function insertStaff(
  db: Db,
  staff: { username: string; password: StoredPassword; permissions: Flags; parentId: bigint },
): Promise<bigint> {
  const row = await db
    .insertInto("admins")
    .values({
      username: staff.username,
      password_hash: staff.password.hash,
      password_sealed: staff.password.sealed,
      role: ROLE.staff,
      permissions: JSON.stringify(staff.permissions),
      parent_id: staff.parentId,
      share: JSON.stringify({}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An account's role and whether it was removed, locked until the transaction ends. */
export function lockAdminForRemoval(db: Db, id: bigint) {
  return db.selectFrom("admins").select(["id", "username", "role", "permissions", "removed_at"]).where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function markRemoved(db: Db, id: bigint): Promise<void> {
  await db.updateTable("admins").set({ removed_at: new Date() }).where("id", "=", id).execute();
}
