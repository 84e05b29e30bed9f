/**
 * Deposit and withdrawal requests: end users ask, staff and partners decide. A decision
 * moves `0 pending → 1 success | 2 fail` exactly once: one conditional UPDATE inside the
 * transaction that also writes its ledger transfers, so concurrent deciders yield one
 * decision and `already processed` for the rest. A withdrawal's amount is reserved when
 * asked for (user → withdrawal reserve), returned on fail and paid out on success. A decision
 * moves the decider's funding account: the house's, or a deciding partner's own balance.
 */
import {
  DEPOSIT_TYPE,
  ROLE,
  type BonusLimits,
  type DepositRow,
  type DepositType,
  type NewRequestEvent,
  type RequestKind,
  type Page,
  type RequestStatus,
  type TransactionRow,
  type WithdrawRow,
} from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { BankDetailsJson } from "../../db/schema.js";
import { badRequest, conflict, forbidden, notFound } from "../../errors.js";
import { minorToAmount, withinAmountCeiling } from "../../money.js";
import { pageOf, type Slice } from "../../validation/schemas.js";
import { findHouseId, findTarget, isInSubtree } from "../accounts/repository.js";
import type { AdminAccount } from "../admins/repository.js";
import { hasStaffFlag } from "../admins/service.js";
import { recordAudit } from "../audit/repository.js";
import { lockSetting, readSetting, writeSetting } from "../settings/repository.js";
import { apply, findSystemAccountId, type AccountRef } from "../ledger/service.js";
import type { Player } from "../players/repository.js";
import {
  countRequests,
  couponPercent,
  decideDeposit,
  decideWithdraw,
  findDeposit,
  findImageOwnerParent,
  findWithdraw,
  insertDeposit,
  insertWithdraw,
  listDeposits,
  listHistory,
  listWithdraws,
  type DepositListRow,
  type RequestFilter,
  type RequestOrder,
  type WithdrawListRow,
} from "./repository.js";
import { decodeImage, readImage, removeImage, storeImage } from "../../uploads.js";
import { SETTINGS_TOASTS } from "../../../protocol/rules.js";
import { decisionOf, metrics } from "../../metrics.js";

export const REQUEST_MESSAGE = {
  depositRequested: "Deposit request submitted successfully",
  withdrawRequested: "Withdraw request submitted successfully",
  depositsUpdated: "Deposits updated successfully",
  withdrawsUpdated: "Withdraws updated successfully",
  bonusLimitsUpdated: SETTINGS_TOASTS.bonusLimits,
  alreadyProcessed: "already processed",
  depositNotFound: "Deposit not found",
  withdrawNotFound: "Withdraw not found",
  imageNotFound: "Image not found",
  userNotFound: "User not found",
  inrRequired: "inr: The value of 1 USDT is required to approve a USDT deposit",
  bonusAbovePercent: (percent: string) => `Bonus exceeds the limit of ${percent}% of the deposit`,
  bonusAboveInr: (inr: string) => `Bonus exceeds the limit of ${inr} INR per decision`,
} as const;

/** The audit action of a change to the bonus limits. */
export const BONUS_LIMITS_ACTION = "update-bonus-limits";

/** The system account that holds pending withdrawals (migration 003). */
export const WITHDRAWAL_RESERVE = "withdrawal-reserve";

/** Announces a new request to the admins allowed to see it (realtime.ts). */
export type Announce = (kind: RequestKind, userId: bigint, event: NewRequestEvent) => Promise<void>;

export type ListQuery = { page: number; pageSize: number; orderBy: RequestOrder["by"]; isAcc: boolean; search?: string };

/** An INR amount or a percentage (in hundredths of a percent) of the credited amount. */
export type BonusInput = { inr?: bigint; percent?: bigint };

export type DepositDecisionInput = {
  id: bigint;
  status: 1 | 2;
  /** Minor INR per USDT. */
  inr?: bigint;
  mainBonus: BonusInput;
  bonus: BonusInput;
};

/** `minor × hundredths / 10,000`, half up: a percentage with 2 decimals of an amount. */
export const percentOf = (minor: bigint, hundredths: bigint) => (minor * hundredths + 5_000n) / 10_000n;

const bonusOf = (input: BonusInput, credited: bigint) =>
  input.inr ?? (input.percent === undefined ? 0n : percentOf(credited, input.percent));

/** 12.5 or "12.50" (numeric text) → 1250n hundredths (a percentage), or minor units (an amount). */
const hundredthsOf = (value: number | string) => BigInt(Math.round(Number(value) * 100));

/** The bonus limits of the settings store (migration 012: always set). */
async function findBonusLimits(db: Db, { forUpdate = false } = {}): Promise<BonusLimits> {
  const limits = forUpdate ? await lockSetting(db, "bonus-limits") : await readSetting(db, "bonus-limits");
  if (!limits) throw new Error("the settings store has no bonus-limits");
  return limits;
}

/** 1000000000n minor → "1,00,00,000" (Indian grouping, as the desk shows rupees). */
const rupees = (minor: bigint) => minorToAmount(minor).toLocaleString("en-IN", { maximumFractionDigits: 2 });

/** The staff flag each kind of request needs. */
export const REQUEST_FLAG = { deposit: "deposits", withdraw: "withdraws" } as const;

/** The transfers a successful deposit makes, each its own ledger kind. */
const CREDIT_KINDS = ["request-deposit", "main-bonus", "bonus", "coupon-bonus"] as const;
type Credits = Record<(typeof CREDIT_KINDS)[number], bigint> & { usdtRate: bigint | null };
const NO_CREDITS: Credits = { usdtRate: null, "request-deposit": 0n, "main-bonus": 0n, bonus: 0n, "coupon-bonus": 0n };

export function createRequestService({ db, uploadsDir, announce }: { db: Db; uploadsDir: string; announce: Announce }) {
  /** The super admin and staff with the kind's flag see everything; a partner its subtree; anyone else nothing. */
  function scopeOf(caller: AdminAccount, kind: RequestKind): bigint | null {
    if (caller.role === ROLE.partner) return caller.id;
    if (!hasStaffFlag(caller, REQUEST_FLAG[kind])) throw forbidden();
    return null;
  }

  /**
   * Whose balance a decision moves: a partner's own (what it credits it pays, what it pays out
   * it gets back), so no partner decision raises its subtree's total; the house's otherwise.
   */
  async function fundingOf(caller: AdminAccount): Promise<AccountRef> {
    return { kind: "admin", id: caller.role === ROLE.partner ? caller.id : await findHouseId(db) };
  }

  async function assertWithin(caller: AdminAccount, kind: RequestKind, userParent: bigint): Promise<void> {
    const within = scopeOf(caller, kind);
    if (within !== null && !(await isInSubtree(db, within, userParent))) throw forbidden();
  }

  async function requestDeposit(
    player: Player,
    input: { amount: bigint; type: DepositType; utr: string; couponCode?: string; image?: string },
  ): Promise<{ _id: string }> {
    // Checked before anything is stored; stored only once the request is otherwise valid.
    const decoded = input.image === undefined ? null : decodeImage(input.image);
    const image = decoded === null ? null : await storeImage(uploadsDir, decoded);
    const row = await insertDeposit(db, {
      userId: player.id,
      amount: input.amount,
      type: input.type,
      utr: input.utr,
      couponCode: input.couponCode ?? null,
      image,
    }).catch(async (error: unknown) => {
      if (image !== null) await removeImage(uploadsDir, image);
      throw error;
    });
    await announce("deposit", player.id, { _id: String(row.id), username: player.username, amount: minorToAmount(input.amount) });
    return { _id: String(row.id) };
  }

  async function requestWithdraw(player: Player, input: { amount: bigint; bank: BankDetailsJson }): Promise<{ _id: string; balance: number }> {
    const reserve: AccountRef = { kind: "system", id: await findSystemAccountId(db, WITHDRAWAL_RESERVE) };
    const house = await findHouseId(db);
    const { id, balance } = await db.transaction().execute(async (trx) => {
      const row = await insertWithdraw(trx, { userId: player.id, amount: input.amount, bank: input.bank });
      const moved = await apply(trx, {
        kind: "withdraw-reserve",
        // The platform acts for the user: transfers nobody on the desk made name the house.
        actorId: house,
        remark: `withdraw request ${row.id}`,
        from: { kind: "user", id: player.id },
        to: reserve,
        amount: input.amount,
      });
      return { id: row.id, balance: moved.from };
    });
    await announce("withdraw", player.id, { _id: String(id), username: player.username, amount: minorToAmount(input.amount) });
    return { _id: String(id), balance: minorToAmount(balance) };
  }

  /** What a deposit row and a withdrawal row both show. */
  function requestFields(row: DepositListRow | WithdrawListRow) {
    return {
      _id: String(row.id),
      user: String(row.user_id),
      username: row.username,
      amount: minorToAmount(row.amount),
      status: row.status as RequestStatus,
      createdAt: row.created_at.toISOString(),
    };
  }

  function toDepositRow(row: DepositListRow): DepositRow {
    return {
      ...requestFields(row),
      bonus: minorToAmount(row.bonus),
      totalBonus: minorToAmount(row.total_bonus),
      couponCode: row.coupon_code,
      type: row.type as DepositType,
      utr: row.utr,
      image: row.image === null ? null : `/uploads/${row.image}`,
    };
  }

  function toWithdrawRow(row: WithdrawListRow): WithdrawRow {
    return {
      ...requestFields(row),
      totalBonus: minorToAmount(row.bonus),
      bank: row.bank,
      remark: row.remark,
    };
  }

  async function page<Row, Out>(
    kind: RequestKind,
    filter: RequestFilter,
    query: ListQuery,
    list: (db: Db, filter: RequestFilter, order: RequestOrder, slice: Slice) => Promise<Row[]>,
    toRow: (row: Row) => Out,
  ): Promise<Page<Out>> {
    const order = { by: query.orderBy, ascending: query.isAcc };
    return pageOf(query, async (slice) => (await list(db, filter, order, slice)).map(toRow), () => countRequests(db, kind, filter));
  }

  const deposits = (caller: AdminAccount, status: RequestStatus, query: ListQuery) =>
    page("deposit", { status, within: scopeOf(caller, "deposit"), search: query.search }, query, listDeposits, toDepositRow);

  const withdraws = (caller: AdminAccount, status: RequestStatus, query: ListQuery) =>
    page("withdraw", { status, within: scopeOf(caller, "withdraw"), search: query.search }, query, listWithdraws, toWithdrawRow);

  async function decideDepositRequest(caller: AdminAccount, input: DepositDecisionInput): Promise<void> {
    const request = await findDeposit(db, input.id);
    if (!request) throw notFound(REQUEST_MESSAGE.depositNotFound);
    await assertWithin(caller, "deposit", request.parent_id);
    if (request.status !== 0) throw conflict(REQUEST_MESSAGE.alreadyProcessed);

    const credits = input.status === 1 ? await creditsOf(request, input) : NO_CREDITS;
    const funding = await fundingOf(caller);
    const to: AccountRef = { kind: "user", id: request.user_id };

    await db.transaction().execute(async (trx) => {
      const decided = await decideDeposit(trx, input.id, {
        status: input.status,
        decidedBy: caller.id,
        usdtRate: credits.usdtRate,
        credited: credits["request-deposit"],
        mainBonus: credits["main-bonus"],
        bonus: credits.bonus,
        couponBonus: credits["coupon-bonus"],
        totalBonus: credits["main-bonus"] + credits.bonus + credits["coupon-bonus"],
      });
      if (!decided) throw conflict(REQUEST_MESSAGE.alreadyProcessed);
      // One transfer per credit, so the ledger tells the amount from each bonus.
      for (const kind of CREDIT_KINDS) {
        if (credits[kind] === 0n) continue;
        await apply(trx, { kind, actorId: caller.id, remark: `deposit request ${input.id}`, from: funding, to, amount: credits[kind] });
      }
    });
    metrics.requestsDecided.inc({ kind: "deposit", decision: decisionOf(input.status) });
  }

  /**
   * What a successful deposit credits, in minor INR, checked before any write: 400 when a USDT
   * deposit comes without its rate, when the bonuses exceed the bonus limits, or when the
   * credits together exceed the money ceiling.
   */
  async function creditsOf(
    request: { amount: bigint; type: number; coupon_code: string | null },
    input: DepositDecisionInput,
  ): Promise<Credits> {
    let usdtRate: bigint | null = null;
    if (request.type === DEPOSIT_TYPE.usdt) {
      if (input.inr === undefined) throw badRequest(REQUEST_MESSAGE.inrRequired);
      usdtRate = input.inr;
    }
    // A USDT request's amount is in USDT; the rate is INR per USDT, both in minor units.
    const credited = withinAmountCeiling(usdtRate === null ? request.amount : (request.amount * usdtRate + 50n) / 100n);
    const percent = request.coupon_code === null ? undefined : await couponPercent(db, request.coupon_code);
    const credits: Credits = {
      usdtRate,
      "request-deposit": credited,
      "main-bonus": bonusOf(input.mainBonus, credited),
      bonus: bonusOf(input.bonus, credited),
      "coupon-bonus": percent === undefined ? 0n : percentOf(credited, hundredthsOf(percent)),
    };
    await assertWithinBonusLimits(credits["main-bonus"] + credits.bonus, credited);
    withinAmountCeiling(CREDIT_KINDS.reduce((sum, kind) => sum + credits[kind], 0n));
    return credits;
  }

  /** The bonuses a decider grants (the coupon's is the site's own offer) stay within the settings' limits. */
  async function assertWithinBonusLimits(granted: bigint, credited: bigint): Promise<void> {
    const limits = await findBonusLimits(db);
    if (granted * 10_000n > credited * hundredthsOf(limits.maxPercent)) {
      throw badRequest(REQUEST_MESSAGE.bonusAbovePercent(String(limits.maxPercent)));
    }
    const maxInr = hundredthsOf(limits.maxInr);
    if (granted > maxInr) throw badRequest(REQUEST_MESSAGE.bonusAboveInr(rupees(maxInr)));
  }

  const bonusLimits = (): Promise<BonusLimits> => findBonusLimits(db);

  /** Sets the bonus limits and audits the values before and after, in one transaction. */
  async function updateLimits(caller: AdminAccount, limits: { maxPercent: bigint; maxInr: bigint }): Promise<BonusLimits> {
    const after: BonusLimits = { maxPercent: Number(limits.maxPercent) / 100, maxInr: minorToAmount(limits.maxInr) };
    return db.transaction().execute(async (trx) => {
      const before = await findBonusLimits(trx, { forUpdate: true });
      await writeSetting(trx, "bonus-limits", after);
      await recordAudit(trx, {
        actorId: caller.id,
        action: BONUS_LIMITS_ACTION,
        targetKind: "settings",
        targetIds: [],
        change: { before, after },
      });
      return after;
    });
  }

  async function decideWithdrawRequest(caller: AdminAccount, input: { id: bigint; status: 1 | 2; remark?: string }): Promise<void> {
    const request = await findWithdraw(db, input.id);
    if (!request) throw notFound(REQUEST_MESSAGE.withdrawNotFound);
    await assertWithin(caller, "withdraw", request.parent_id);
    if (request.status !== 0) throw conflict(REQUEST_MESSAGE.alreadyProcessed);

    const reserve: AccountRef = { kind: "system", id: await findSystemAccountId(db, WITHDRAWAL_RESERVE) };
    // Paid out: to whoever pays the user outside the platform (the decider's funding account).
    const to: AccountRef = input.status === 1 ? await fundingOf(caller) : { kind: "user", id: request.user_id };
    await db.transaction().execute(async (trx) => {
      const decided = await decideWithdraw(trx, input.id, { status: input.status, decidedBy: caller.id, remark: input.remark || null });
      if (!decided) throw conflict(REQUEST_MESSAGE.alreadyProcessed);
      await apply(trx, {
        kind: input.status === 1 ? "withdraw-payout" : "withdraw-return",
        actorId: caller.id,
        remark: `withdraw request ${input.id}`,
        from: reserve,
        to,
        amount: request.amount,
      });
    });
    metrics.requestsDecided.inc({ kind: "withdraw", decision: decisionOf(input.status) });
  }

  /** GET /transaction: one user's requests, or those of every user under a partner. */
  async function history(
    caller: AdminAccount,
    query: { user: bigint; role: "user" | "partner"; type: "deposits" | "withdraws"; page: number; pageSize: number },
  ): Promise<Page<TransactionRow>> {
    const kind: RequestKind = query.type === "deposits" ? "deposit" : "withdraw";
    const target = await findTarget(db, query.role === "partner" ? "admin" : "user", query.user);
    if (!target) throw notFound(REQUEST_MESSAGE.userNotFound);
    await assertWithin(caller, kind, target.anchor);
    const filter: RequestFilter = query.role === "partner" ? { within: target.id } : { within: null, user: target.id };
    const toTransaction = (row: Awaited<ReturnType<typeof listHistory>>[number]): TransactionRow => ({
      _id: String(row.id),
      amount: minorToAmount(row.amount),
      ...("type" in row ? { type: row.type as DepositType } : {}),
      status: row.status as RequestStatus,
      createdAt: row.created_at.toISOString(),
    });
    return pageOf(query, async (slice) => (await listHistory(db, kind, filter, slice)).map(toTransaction), () => countRequests(db, kind, filter));
  }

  /** A receipt image, to an admin who may see the deposit carrying it. */
  async function image(caller: AdminAccount, name: string) {
    const parent = await findImageOwnerParent(db, name);
    if (parent === undefined) throw notFound(REQUEST_MESSAGE.imageNotFound);
    await assertWithin(caller, "deposit", parent);
    return readImage(uploadsDir, name);
  }

  return {
    requestDeposit,
    requestWithdraw,
    deposits,
    withdraws,
    decideDeposit: decideDepositRequest,
    decideWithdraw: decideWithdrawRequest,
    history,
    image,
    bonusLimits,
    updateBonusLimits: updateLimits,
  };
}
