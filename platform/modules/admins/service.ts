/** Permission flags and the wire shapes of the signed-in admin. */
import {
  GAME_FLAGS,
  ROLE,
  STAFF_FLAGS,
  type AdminRecord,
  type GameFlag,
  type NewStaff,
  type PartnerRole,
  type Role,
  type StaffFlag,
  type StaffRow,
} from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { Flags } from "../../db/schema.js";
import { badRequest, conflict, notFound } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { storePassword, type Revealer } from "../../security/reveal.js";
import { recordAudit, revokeSessions, usernameTaken } from "../accounts/repository.js";
import { insertStaff, listPartnerRoles, listStaffAccounts, lockAdminForRemoval, markRemoved, type AdminAccount } from "./repository.js";

type Flag = GameFlag | StaffFlag;
const ALL_FLAGS: readonly Flag[] = [...GAME_FLAGS, ...STAFF_FLAGS];

type Holder = Pick<AdminAccount, "role" | "permissions">;

/** Every flag with a boolean. The super admin holds all of them, whatever is stored. */
export function flagsOf(admin: Holder): Record<Flag, boolean> {
  const held = (flag: Flag) => admin.role === ROLE.superAdmin || admin.permissions[flag] === true;
  return Object.fromEntries(ALL_FLAGS.map((flag) => [flag, held(flag)])) as Record<Flag, boolean>;
}

/** GET /permissions: the game flags the caller may grant to a new account. */
export function gameFlagsOf(admin: Holder): Record<GameFlag, boolean> {
  const flags = flagsOf(admin);
  return Object.fromEntries(GAME_FLAGS.map((flag) => [flag, flags[flag]])) as Record<GameFlag, boolean>;
}

/**
 * Staff-flag authorisation: the super admin may do everything, staff what their flags
 * allow. Partners hold no staff flags; their calls are scoped to their own downline instead.
 */
export function hasStaffFlag(admin: Holder, flag: StaffFlag): boolean {
  if (admin.role === ROLE.superAdmin) return true;
  return admin.role === ROLE.staff && flagsOf(admin)[flag];
}

export function toAdminRecord(admin: AdminAccount, udid: string): AdminRecord {
  return {
    _id: String(admin.id),
    udid,
    username: admin.username,
    role: admin.role as Role,
    balance: admin.role === ROLE.superAdmin ? "unlimited" : minorToAmount(admin.balance),
    permissions: JSON.stringify(flagsOf(admin)),
  };
}

export const STAFF_MESSAGE = {
  added: "Admin added successfully",
  removed: "Admin removed successfully",
  usernameTaken: "Username already exists",
  // Not "Admin not found": that message ends the caller's console session.
  notFound: "Staff not found",
  cannotRemoveSelf: "You cannot remove yourself",
  onlyStaff: "Only staff accounts can be removed here",
} as const;

const staffFlagsOf = (permissions: Flags): Record<StaffFlag, boolean> =>
  Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, permissions[flag] === true])) as Record<StaffFlag, boolean>;

/**
 * The admins module: partner roles, and staff management (the super admin's alone; the routes
 * check it). Adding and removing staff are audited.
 */
export function createAdminService({ db, revealer }: { db: Db; revealer: Revealer }) {
  async function partnerRoles(): Promise<PartnerRole[]> {
    const rows = await listPartnerRoles(db);
    return rows.map((row) => ({ _id: String(row.id), role: row.name }));
  }

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

  return { partnerRoles, listStaff, addStaff, removeStaff };
}
