import { STAFF_FLAGS, ROLE, type NewStaff, type StaffFlag, type StaffRow } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { Flags } from "../../db/schema.js";
import { badRequest, conflict, notFound } from "../../errors.js";
import { storePassword, type Revealer } from "../../security/reveal.js";
import { revokeSessions, usernameTaken } from "../accounts/repository.js";
import type { AdminAccount } from "../admins/repository.js";
import { recordAudit } from "../audit/repository.js";
import { SETTINGS_TOASTS } from "../../../protocol/rules.js";
import { insertStaff, listStaffAccounts, lockAdminForRemoval, markRemoved } from "./repository.js";

export const STAFF_MESSAGE = {
  added: SETTINGS_TOASTS.staffAdded,
  removed: SETTINGS_TOASTS.staffRemoved,
  usernameTaken: "Username already exists",
  // Not "Admin not found": that message ends the caller's console session.
  notFound: "Staff not found",
  cannotRemoveSelf: "You cannot remove yourself",
  onlyStaff: "Only staff accounts can be removed here",
} as const;

const staffFlagsOf = (permissions: Flags): Record<StaffFlag, boolean> =>
  Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, permissions[flag] === true])) as Record<StaffFlag, boolean>;

/** The staff desk: the super admin's alone (the routes check it). Adding and removing staff are audited. */
export function createStaffService({ db, revealer }: { db: Db; revealer: Revealer }) {
  async function listStaff(): Promise<StaffRow[]> {
    return (await listStaffAccounts(db)).map((row) => ({
      _id: String(row.id),
      username: row.username,
      createdAt: row.created_at.toISOString(),
      permissions: staffFlagsOf(row.permissions),
    }));
  }

  async function addStaff(actor: AdminAccount, input: NewStaff): Promise<{ _id: string }> {
    const permissions = staffFlagsOf(input.permissions);
    const password = await storePassword(input.password, revealer);
    return db.transaction().execute(async (trx) => {
      if (await usernameTaken(trx, input.username)) throw conflict(STAFF_MESSAGE.usernameTaken);
      const id = await insertStaff(trx, { username: input.username, password, permissions, parentId: actor.id });
      await recordAudit(trx, {
        actorId: actor.id,
        action: "staff.add",
        targetKind: "admin",
        targetIds: [id],
        change: { before: null, after: { username: input.username, permissions } },
      });
      return { _id: String(id) };
    });
  }

  /** Marks the account removed and ends its sessions in one transaction: its token fails on the next call. */
  async function removeStaff(actor: AdminAccount, id: bigint): Promise<void> {
    if (id === actor.id) throw badRequest(STAFF_MESSAGE.cannotRemoveSelf);
    await db.transaction().execute(async (trx) => {
      const target = await lockAdminForRemoval(trx, id);
      if (!target || target.removed_at !== null) throw notFound(STAFF_MESSAGE.notFound);
      if (target.role !== ROLE.staff) throw badRequest(STAFF_MESSAGE.onlyStaff);
      await markRemoved(trx, id);
      await revokeSessions(trx, { kind: "admin", id });
      await recordAudit(trx, {
        actorId: actor.id,
        action: "staff.remove",
        targetKind: "admin",
        targetIds: [id],
        change: { before: { username: target.username, permissions: staffFlagsOf(target.permissions) }, after: null },
      });
    });
  }

  return { listStaff, addStaff, removeStaff };
}
