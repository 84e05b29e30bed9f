/** Permission flags and the wire shape of the signed-in admin: pure functions every desk shares. */
import { GAME_FLAGS, ROLE, STAFF_FLAGS, type AdminRecord, type GameFlag, type Role, type StaffFlag } from "../../../protocol/wire.js";
import { minorToAmount } from "../../money.js";
import type { AdminAccount } from "./repository.js";

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
