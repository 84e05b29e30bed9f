import type { Db } from "../../db/index.js";
import { ROLE } from "../../../protocol/wire.js";
import type { Flags } from "../../db/schema.js";
import type { StoredPassword } from "../../security/reveal.js";

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
