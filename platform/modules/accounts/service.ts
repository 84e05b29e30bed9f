/**
 * The account desk: end users and partners (panels) as seen by the super admin, staff
 * holding `users`, and partners, each partner confined to its own subtree (the partners
 * under it, recursively, and their users).
 */
import { GAME_FLAGS, ROLE, SEARCH_COUNT_LIMIT, type AccountPage, type GameFlag, type PartnerRole } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { AccountKind, Flags, Shares } from "../../db/schema.js";
import { badRequest, conflict, forbidden, notFound } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { storePassword, type Revealer } from "../../security/reveal.js";
import { pageOf, type Slice } from "../../validation/schemas.js";
import type { AdminAccount } from "../admins/repository.js";
import { flagsOf } from "../admins/service.js";
import { recordAudit } from "../audit/repository.js";
import { move, type AccountRef } from "../ledger/service.js";
import { readSetting, writeSetting } from "../settings/repository.js";
import {
  countPartners,
  countUsers,
  findHouseId,
  findPartnerRow,
  findTarget,
  insertPartner,
  insertUser,
  isInSubtree,
  listLoginLogs,
  listPartnerRoles,
  listPartners,
  listUsers,
  partnerRoleLevel,
  partnersAfter,
  revokeSessions,
  updateAccountPassword,
  updateSwitches,
  usernameTaken,
  usersAfter,
  type ListFilter,
  type ListOrder,
  type PartnerListRow,
  type Target,
  type UserListRow,
} from "./repository.js";

export const ACCOUNT_MESSAGE = {
  userAdded: "User added successfully",
  deposited: "Deposit added successfully",
  withdrawn: "Withdraw successfully",
  passwordChanged: "Password changed successfully",
  permissionsSaved: "Permissions saved successfully",
  defaultAdminChanged: "Default admin changed successfully",
  usernameTaken: "Username already exists",
  userNotFound: "User not found",
  partnerNotFound: "Partner not found",
  invalidRole: "Invalid role",
  roleNotBelow: "You can only create partners of a lower tier than yours",
  cannotGrant: (flag: string) => `You cannot grant ${flag}`,
  shareAboveYours: (flag: string, yours: number) => `Share for ${flag} cannot exceed yours (${yours})`,
} as const;

/** The audit action written whenever a list answer carries passwords. */
export const REVEAL_ACTION = "reveal-passwords";

type Parent = { _id: string; username: string };
export type UserRow = {
  _id: string;
  username: string;
  mobNo: string;
  password?: string | null;
  balance: number;
  bonus: number;
  createdAt: string;
  login: boolean;
  bet: boolean;
  parent: Parent;
};
export type PartnerRow = UserRow & { roleName: string };
export type PermissionSettings = { permissions: Record<GameFlag, boolean>; bet: boolean; login: boolean };
export type LoginLog = { ip: string; userAgent: string; createdAt: string };
export type MoneyResult = { balance: number; actorBalance: number | "unlimited" };

export type ListQuery = {
  username?: string;
  /** Only these accounts, by exact username (extension). */
  usernames?: string[];
  /** Only these accounts, by id (extension). */
  ids?: bigint[];
  page: number;
  pageSize: number;
  orderBy: ListOrder["by"];
  isAcc: boolean;
  partner?: bigint;
};

export type NewAccountInput = {
  username: string;
  password: string;
  mobNo?: string;
  permissions: Flags;
  /** Present for a partner. */
  partner: { roleId: bigint; share: Shares } | null;
};

/** `amount` in minor units. */
export type MoneyInput = { amount: bigint; remark?: string; user: bigint; isPartner: boolean; requestId?: string };

const kindOf = (isPartner: boolean): AccountKind => (isPartner ? "admin" : "user");
const isPartnerCaller = (caller: AdminAccount) => caller.role === ROLE.partner;

function gameFlags(flags: Flags): Record<GameFlag, boolean> {
  return Object.fromEntries(GAME_FLAGS.map((flag) => [flag, flags[flag] === true])) as Record<GameFlag, boolean>;
}

/** 403 for the first flag turned on that the caller does not hold itself. */
function assertGrantable(caller: AdminAccount, wanted: Flags, current: Flags = {}): void {
  const held = flagsOf(caller);
  const granted = GAME_FLAGS.find((flag) => wanted[flag] === true && current[flag] !== true && !held[flag]);
  if (granted) throw forbidden(ACCOUNT_MESSAGE.cannotGrant(granted));
}

/** The partner that receives users the super admin and staff create, if one was chosen (the settings store). */
async function findDefaultAdminId(db: Db): Promise<bigint | null> {
  const setting = await readSetting(db, "default-admin");
  return setting === null ? null : BigInt(setting.id);
}

export function createAccountService({ db, revealer }: { db: Db; revealer: Revealer }) {
  const scopeOf = (caller: AdminAccount): bigint | null => (isPartnerCaller(caller) ? caller.id : null);

  /** The list filter of a query, refusing a `partner` outside the caller's subtree. */
  async function filterOf(caller: AdminAccount, query: Pick<ListQuery, "username" | "partner" | "usernames" | "ids">): Promise<ListFilter> {
    const within = scopeOf(caller);
    if (query.partner !== undefined && within !== null && !(await isInSubtree(db, within, query.partner))) throw forbidden();
    const usernames = query.usernames?.map((name) => name.toLowerCase());
    return { within, parent: query.partner, search: query.username, usernames, ids: query.ids };
  }

  /** A user or partner the caller may act on: anything for the super admin and staff, its strict subtree for a partner. */
  async function targetOf(caller: AdminAccount, id: bigint, isPartner: boolean): Promise<Target> {
    const target = await findTarget(db, kindOf(isPartner), id);
    if (!target) throw notFound(isPartner ? ACCOUNT_MESSAGE.partnerNotFound : ACCOUNT_MESSAGE.userNotFound);
    const within = scopeOf(caller);
    if (within !== null) {
      const self = target.kind === "admin" && target.id === within;
      if (self || !(await isInSubtree(db, within, target.anchor))) throw forbidden();
    }
    return target;
  }

  /** Role 1 reads passwords; every answer that carries them is audited. */
  async function revealPasswords(caller: AdminAccount, kind: AccountKind, rows: { id: bigint; password_sealed: string | null }[]) {
    if (caller.role !== ROLE.superAdmin) return undefined;
    await recordAudit(db, { actorId: caller.id, action: REVEAL_ACTION, targetKind: kind, targetIds: rows.map((row) => row.id) });
    return new Map(rows.map((row) => [row.id, row.password_sealed === null ? null : revealer.open(row.password_sealed)]));
  }

  function toUserRow(row: UserListRow, passwords?: Map<bigint, string | null>): UserRow {
    return {
      _id: String(row.id),
      username: row.username,
      mobNo: row.mob_no ?? "",
      ...(passwords ? { password: passwords.get(row.id) ?? null } : {}),
      balance: minorToAmount(row.balance),
      bonus: minorToAmount(row.bonus),
      createdAt: row.created_at.toISOString(),
      login: row.login_enabled,
      bet: row.bet_enabled,
      parent: { _id: String(row.parent_id), username: row.parent_username },
    };
  }

  function toPartnerRow(row: PartnerListRow, passwords?: Map<bigint, string | null>): PartnerRow {
    return {
      _id: String(row.id),
      username: row.username,
      mobNo: "",
      ...(passwords ? { password: passwords.get(row.id) ?? null } : {}),
      balance: minorToAmount(row.balance),
      bonus: 0,
      roleName: row.role_name,
      createdAt: row.created_at.toISOString(),
      login: row.login_enabled,
      bet: row.bet_enabled,
      parent: { _id: String(row.parent_id), username: row.parent_username },
    };
  }

  /** A page of users or partners, their passwords shown to the super admin (audited). */
  async function accountPage<Row extends { id: bigint; password_sealed: string | null }, Item>(
    caller: AdminAccount,
    query: ListQuery,
    kind: AccountKind,
    read: {
      list: (db: Db, filter: ListFilter, order: ListOrder, slice: Slice) => Promise<Row[]>;
      count: (db: Db, filter: ListFilter) => Promise<number>;
      toItem: (row: Row, passwords?: Map<bigint, string | null>) => Item;
    },
  ): Promise<AccountPage<Item>> {
    const filter = await filterOf(caller, query);
    const order = { by: query.orderBy, ascending: query.isAcc };
    const list = async (slice: Slice) => {
      const rows = await read.list(db, filter, order, slice);
      const passwords = await revealPasswords(caller, kind, rows);
      return rows.map((row) => read.toItem(row, passwords));
    };
    const page = await pageOf(query, list, () => read.count(db, filter));
    // A search counted past its limit (the repository stops there) says "more" rather than read every match;
    // the whole list's count is the kept one, exact however many.
    return filter.search && page.total > SEARCH_COUNT_LIMIT ? { ...page, total: SEARCH_COUNT_LIMIT, totalCapped: true } : page;
  }

  const users = (caller: AdminAccount, query: ListQuery): Promise<AccountPage<UserRow>> =>
    accountPage(caller, query, "user", { list: listUsers, count: countUsers, toItem: toUserRow });

  const partners = (caller: AdminAccount, query: ListQuery): Promise<AccountPage<PartnerRow>> =>
    accountPage(caller, query, "admin", { list: listPartners, count: countPartners, toItem: toPartnerRow });

  /** Every matching row, in id order, a batch at a time (no page limit, bounded memory). */
  async function* exportRows(
    caller: AdminAccount,
    query: Pick<ListQuery, "username" | "partner">,
    type: "users" | "partners",
  ): AsyncGenerator<UserRow | PartnerRow> {
    const filter = await filterOf(caller, query);
    const batch = 1000;
    for (let after = 0n; ; ) {
      const rows =
        type === "users"
          ? (await usersAfter(db, filter, after, batch)).map((row) => toUserRow(row))
          : (await partnersAfter(db, filter, after, batch)).map((row) => toPartnerRow(row));
      yield* rows;
      if (rows.length < batch) return;
      after = BigInt(rows.at(-1)!._id);
    }
  }

  async function addAccount(caller: AdminAccount, input: NewAccountInput): Promise<{ _id: string }> {
    assertGrantable(caller, input.permissions);
    const permissions = gameFlags(input.permissions);
    if (input.partner) await assertPartnerTerms(caller, input.partner);
    const stored = await storePassword(input.password, revealer);

    const id = await db.transaction().execute(async (trx) => {
      if (await usernameTaken(trx, input.username)) throw conflict(ACCOUNT_MESSAGE.usernameTaken);
      const account = {
        username: input.username,
        passwordHash: stored.hash,
        passwordSealed: stored.sealed,
        mobNo: input.mobNo ?? null,
        permissions,
      };
      const house = await findHouseId(trx);
      if (input.partner) {
        return insertPartner(trx, { ...account, ...input.partner, parentId: isPartnerCaller(caller) ? caller.id : house });
      }
      const parentId = isPartnerCaller(caller) ? caller.id : ((await findDefaultAdminId(trx)) ?? house);
      return insertUser(trx, { ...account, parentId });
    });
    return { _id: String(id) };
  }

  /** A new partner's role exists and ranks below a partner caller's; its shares do not exceed the caller's. */
  async function assertPartnerTerms(caller: AdminAccount, partner: { roleId: bigint; share: Shares }): Promise<void> {
    const level = await partnerRoleLevel(db, partner.roleId);
    if (level === undefined) throw badRequest(ACCOUNT_MESSAGE.invalidRole);
    if (!isPartnerCaller(caller)) return;
    const callerLevel = caller.partner_role_id === null ? undefined : await partnerRoleLevel(db, caller.partner_role_id);
    if (callerLevel === undefined || level <= callerLevel) throw forbidden(ACCOUNT_MESSAGE.roleNotBelow);
    for (const flag of GAME_FLAGS) {
      const yours = caller.share[flag] ?? 0;
      if ((partner.share[flag] ?? 0) > yours) throw badRequest(ACCOUNT_MESSAGE.shareAboveYours(flag, yours));
    }
  }

  /** The account a partner's money moves through is its own; the super admin and staff act for the house. */
  async function fundingOf(caller: AdminAccount): Promise<{ ref: AccountRef; house: boolean }> {
    if (isPartnerCaller(caller)) return { ref: { kind: "admin", id: caller.id }, house: false };
    return { ref: { kind: "admin", id: await findHouseId(db) }, house: true };
  }

  /** A deposit moves money from the actor's funding account to the target; a withdrawal back. */
  async function transfer(kind: "deposit" | "withdraw", caller: AdminAccount, input: MoneyInput): Promise<MoneyResult> {
    const target = await targetOf(caller, input.user, input.isPartner);
    const funding = await fundingOf(caller);
    const toTarget = kind === "deposit";
    const result = await move(db, {
      kind,
      actorId: caller.id,
      requestId: input.requestId,
      remark: input.remark ?? "",
      from: toTarget ? funding.ref : target,
      to: toTarget ? target : funding.ref,
      amount: input.amount,
    });
    const [targetBalance, fundingBalance] = toTarget ? [result.to, result.from] : [result.from, result.to];
    return { balance: minorToAmount(targetBalance), actorBalance: funding.house ? "unlimited" : minorToAmount(fundingBalance) };
  }

  const deposit = (caller: AdminAccount, input: MoneyInput) => transfer("deposit", caller, input);
  const withdraw = (caller: AdminAccount, input: MoneyInput) => transfer("withdraw", caller, input);

  async function changePassword(caller: AdminAccount, input: { user: bigint; isPartner: boolean; password: string }) {
    const target = await targetOf(caller, input.user, input.isPartner);
    const stored = await storePassword(input.password, revealer);
    await db.transaction().execute(async (trx) => {
      await updateAccountPassword(trx, target, stored);
      await revokeSessions(trx, target);
    });
  }

  async function permissions(caller: AdminAccount, id: bigint, isPartner: boolean): Promise<PermissionSettings> {
    const target = await targetOf(caller, id, isPartner);
    return { permissions: gameFlags(target.permissions), bet: target.bet, login: target.login };
  }

  async function changePermissions(
    caller: AdminAccount,
    input: { user: bigint; isPartner: boolean; permissions: Flags; bet: boolean; login: boolean },
  ): Promise<void> {
    const target = await targetOf(caller, input.user, input.isPartner);
    assertGrantable(caller, input.permissions, target.permissions);
    await db.transaction().execute(async (trx) => {
      await updateSwitches(trx, target, { permissions: gameFlags(input.permissions), bet: input.bet, login: input.login });
      if (!input.login) await revokeSessions(trx, target);
    });
  }

  async function loginLogs(caller: AdminAccount, id: bigint, isPartner: boolean): Promise<LoginLog[]> {
    const target = await targetOf(caller, id, isPartner);
    const rows = await listLoginLogs(db, target);
    return rows.map((row) => ({ ip: row.ip, userAgent: row.user_agent, createdAt: row.created_at.toISOString() }));
  }

  async function makeDefaultAdmin(id: bigint): Promise<void> {
    if (!(await findPartnerRow(db, id))) throw notFound(ACCOUNT_MESSAGE.partnerNotFound);
    await writeSetting(db, "default-admin", { id: String(id) });
  }

  async function defaultAdmin(): Promise<PartnerRow[]> {
    const id = await findDefaultAdminId(db);
    const row = id === null ? undefined : await findPartnerRow(db, id);
    return row ? [toPartnerRow(row)] : [];
  }

  async function partnerRoles(): Promise<PartnerRole[]> {
    return (await listPartnerRoles(db)).map((row) => ({ _id: String(row.id), role: row.name }));
  }

  return {
    partnerRoles,
    users,
    partners,
    exportRows,
    addAccount,
    deposit,
    withdraw,
    changePassword,
    permissions,
    changePermissions,
    loginLogs,
    makeDefaultAdmin,
    defaultAdmin,
  };
}
