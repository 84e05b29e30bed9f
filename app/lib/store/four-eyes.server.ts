/**
 * Four-eyes approval in the console's store (issue 19, ADR 0009): the thresholds the super admin
 * sets, the actions held above them, and the one conditional update that claims a held action for
 * its checker, so it is performed once however many checkers approve at once.
 */
import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import type { CallName } from "../../../protocol/calls";
import type { ConsoleDatabase, ConsoleStore, PerformedOutcome } from "./schema";

export type FourEyesThresholds = {
  /** A manual credit or debit above this amount waits; null: off. */
  transferAbove: number | null;
  /**
   * Approving a deposit or withdrawal request that credits or pays out above this amount waits
   * (a deposit's figure: the USDT rate applied, bonuses included); null: off.
   */
  decisionAbove: number | null;
  /** Every resettlement waits. */
  resettle: boolean;
  /** A settlement job of more bets than this waits; null: off. */
  jobItemsAbove: number | null;
  /** A settlement job whose stakes total above this waits; null: off. */
  jobTotalAbove: number | null;
  /** A credit, debit or approved request taking one account's total over the window above this waits; null: off. */
  accountCumulativeAbove: number | null;
  /** Likewise for the total one operator moved over the window; null: off. */
  operatorCumulativeAbove: number | null;
  /** The rolling window of the two cumulative thresholds, in hours. */
  cumulativeHours: number;
  /** An approval not decided within this many hours is closed as expired. */
  expiryHours: number;
};

/** Off: the console performs every action at once, as before four-eyes. */
export const FOUR_EYES_OFF: FourEyesThresholds = {
  transferAbove: null,
  decisionAbove: null,
  resettle: false,
  jobItemsAbove: null,
  jobTotalAbove: null,
  accountCumulativeAbove: null,
  operatorCumulativeAbove: null,
  cumulativeHours: 24,
  expiryHours: 24,
};

export async function readThresholds(store: ConsoleStore): Promise<FourEyesThresholds> {
  const row = await store.selectFrom("console_four_eyes").selectAll().executeTakeFirst();
  return row
    ? {
        transferAbove: row.transfer_above,
        decisionAbove: row.decision_above,
        resettle: row.resettle,
        jobItemsAbove: row.job_items_above,
        jobTotalAbove: row.job_total_above,
        accountCumulativeAbove: row.account_cumulative_above,
        operatorCumulativeAbove: row.operator_cumulative_above,
        cumulativeHours: row.cumulative_hours,
        expiryHours: row.expiry_hours,
      }
    : FOUR_EYES_OFF;
}

export async function saveThresholds(store: ConsoleStore, thresholds: FourEyesThresholds): Promise<void> {
  await store
    .updateTable("console_four_eyes")
    .set({
      transfer_above: thresholds.transferAbove,
      decision_above: thresholds.decisionAbove,
      resettle: thresholds.resettle,
      job_items_above: thresholds.jobItemsAbove,
      job_total_above: thresholds.jobTotalAbove,
      account_cumulative_above: thresholds.accountCumulativeAbove,
      operator_cumulative_above: thresholds.operatorCumulativeAbove,
      cumulative_hours: thresholds.cumulativeHours,
      expiry_hours: thresholds.expiryHours,
    })
    .execute();
}

/**
 * Why a call waits for a second operator under these thresholds, or null: it is performed now. A
 * decision's body has no amount: `moved` is what approving the request credits or pays out
 * (`decisionFigure`), null when it could not be read (then an approval waits, rather than pass
 * unchecked).
 */
export function holdReason(thresholds: FourEyesThresholds, call: CallName, body: unknown, moved?: number | null): string | null {
  switch (call) {
    case "updateDeposit":
    case "updateWithdraw": {
      const above = thresholds.decisionAbove;
      if (above === null || (body as { status: number }).status !== 1) return null;
      if (moved === null || moved === undefined) return `above ${above} (its amount could not be read)`;
      return moved > above ? `above ${above}` : null;
    }
    case "userDeposit":
    case "userWithdraw": {
      const { amount } = body as { amount: number };
      const above = thresholds.transferAbove;
      return above !== null && amount > above ? `above ${above}` : null;
    }
    case "resettleBet":
      return thresholds.resettle ? "every resettlement" : null;
    default:
      return null;
  }
}

/** How a reason names a job's items and its total: a settlement's bets and stakes, a bulk job's accounts and total. */
export type JobWords = { items: string; total: string };
const SETTLEMENT_WORDS: JobWords = { items: "bets", total: "stakes" };

/** Why a job of `items` items whose amounts total `total` waits, or null: it runs now. */
export function jobHoldReason(thresholds: FourEyesThresholds, items: number, total: number, words: JobWords = SETTLEMENT_WORDS): string | null {
  const reasons = [
    thresholds.jobItemsAbove !== null && items > thresholds.jobItemsAbove ? `more than ${thresholds.jobItemsAbove} ${words.items}` : null,
    thresholds.jobTotalAbove !== null && total > thresholds.jobTotalAbove ? `${words.total} above ${thresholds.jobTotalAbove}` : null,
  ].filter((reason) => reason !== null);
  return reasons.length > 0 ? reasons.join(", ") : null;
}

/** Whether a settlement job threshold is set (then every settlement must come as a stored job). */
export async function jobThresholdsOn(store: ConsoleStore): Promise<boolean> {
  const { jobItemsAbove, jobTotalAbove } = await readThresholds(store);
  return jobItemsAbove !== null || jobTotalAbove !== null;
}

/** A held job's call name, a settlement's or a bulk credit, debit or switch's: not an upstream call, the console runs its items once approved. */
export const SETTLE_JOB = "settleJob";
export const ACCOUNT_JOB = "accountJob";
export type HeldCall = CallName | typeof SETTLE_JOB | typeof ACCOUNT_JOB;
export const isJobCall = (call: HeldCall): call is typeof SETTLE_JOB | typeof ACCOUNT_JOB => call === SETTLE_JOB || call === ACCOUNT_JOB;

/** The calls a threshold may hold: any other call never reads the thresholds. */
export const HOLDABLE_CALLS: ReadonlySet<CallName> = new Set(["userDeposit", "userWithdraw", "updateDeposit", "updateWithdraw", "resettleBet"]);

/** Whether either rolling window's threshold is set (then every credit, debit and approval is counted). */
export const cumulativeOn = (thresholds: FourEyesThresholds): boolean =>
  thresholds.accountCumulativeAbove !== null || thresholds.operatorCumulativeAbove !== null;

/** Whether the call approves a request, whose figure must be read before `holdReason`. */
export const isApproval = (call: CallName, body: unknown): call is "updateDeposit" | "updateWithdraw" =>
  (call === "updateDeposit" || call === "updateWithdraw") && (body as { status: number }).status === 1;

/** Whether the call moves money that a threshold counts: a manual credit or debit, or an approval. */
export const isCountedMove = (call: CallName, body: unknown): boolean => call === "userDeposit" || call === "userWithdraw" || isApproval(call, body);

/** An action counted in the rolling windows: who moved how much to or from which account. */
export type Move = {
  operator: string;
  /** `user <id>` or `panel <id>`. */
  account: string;
  call: CallName;
  amount: number;
  /** The transfer's requestId, or the decided request's id. */
  reference: string;
};

/** Earlier moves a reason names one by one; the rest are counted. */
const NAMED_MOVES = 5;

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * Counts a move in the rolling windows, or answers why it waits: with it, the account's or the
 * operator's total over the last `cumulativeHours` goes above its threshold (the reason names the
 * earlier moves). Read and written under the lock of the thresholds' row, so moves checked at once
 * on any number of instances sharing the store are counted one after the other: two cannot both
 * slip under. Answers the counted move's id, to `uncountMove` if the API refuses it.
 */
export async function countMove(store: ConsoleStore, move: Move): Promise<{ counted: bigint } | { reason: string }> {
  return store.transaction().execute(async (trx) => {
    const limits = await trx.selectFrom("console_four_eyes").selectAll().forUpdate().executeTakeFirstOrThrow();
    const hours = limits.cumulative_hours;
    const windows = [
      { column: "account", value: move.account, above: limits.account_cumulative_above, who: `account ${move.account}` },
      { column: "operator", value: move.operator, above: limits.operator_cumulative_above, who: `operator ${move.operator}` },
    ] as const;
    const reasons: string[] = [];
    for (const { column, value, above, who } of windows) {
      if (above === null) continue;
      const earlier = await trx
        .selectFrom("console_four_eyes_moves")
        .select(["at", "operator", "account", "call", "amount", "reference"])
        .where(column, "=", value)
        .where("refused", "=", false)
        .where("at", ">", sql<Date>`now() - make_interval(hours => ${hours})`)
        .orderBy("at")
        .execute();
      const total = cents(earlier.reduce((sum, row) => sum + row.amount, move.amount));
      if (total <= above) continue;
      // Each earlier move by the other side of the window: an account's by operator, an operator's by account.
      const named = earlier
        .slice(-NAMED_MOVES)
        .map((row) => `${row.amount} ${row.call} ${row.reference} (${column === "account" ? row.operator : row.account}) at ${row.at.toISOString().slice(0, 19)}Z`);
      const more = earlier.length > NAMED_MOVES ? ` and ${earlier.length - NAMED_MOVES} more` : "";
      reasons.push(`${who} moved ${total} in ${hours} h with this, above ${above} (earlier: ${named.join(", ") || "none"}${more})`);
    }
    if (reasons.length > 0) return { reason: reasons.join("; ") };
    const { id } = await trx.insertInto("console_four_eyes_moves").values(move).returning("id").executeTakeFirstOrThrow();
    return { counted: id };
  });
}

/** A counted move the API refused: nothing moved, so it no longer counts. */
export async function uncountMove(store: ConsoleStore, id: bigint): Promise<void> {
  await store.updateTable("console_four_eyes_moves").set({ refused: true }).where("id", "=", id).execute();
}

export type ApprovalStatus = "pending" | "approved" | "rejected" | "expired";

export type Approval = {
  id: string;
  call: HeldCall;
  request: unknown;
  summary: string;
  reason: string;
  maker: string;
  createdAt: Date;
  expiresAt: Date;
  status: ApprovalStatus;
  checker: string | null;
  outcome: PerformedOutcome | null;
  message: string | null;
  /** The account's username as the maker's form named it: a label for the audit trail only. */
  accountName: string | null;
};

type Row = Selectable<ConsoleDatabase["console_approvals"]>;

const approvalOf = (row: Row, now = new Date()): Approval => ({
  id: row.id,
  call: row.call as HeldCall,
  request: row.request,
  summary: row.summary,
  reason: row.reason,
  maker: row.maker,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  // An expiry closes it without a write: nothing can claim it after expires_at.
  status: row.status === "pending" && row.expires_at <= now ? "expired" : row.status,
  checker: row.checker,
  outcome: row.outcome,
  message: row.message,
  accountName: row.account_name,
});

export type ApprovalDraft = Pick<Approval, "call" | "request" | "summary" | "reason" | "maker"> & Partial<Pick<Approval, "accountName">>;

export async function createApproval(store: ConsoleStore, draft: ApprovalDraft, expiryHours: number): Promise<Approval> {
  const row = await store
    .insertInto("console_approvals")
    .values({
      id: randomUUID(),
      call: draft.call,
      request: JSON.stringify(draft.request),
      summary: draft.summary,
      reason: draft.reason,
      maker: draft.maker,
      account_name: draft.accountName ?? null,
      expires_at: sql<Date>`now() + make_interval(hours => ${expiryHours})`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return approvalOf(row);
}

export type Decision = { ok: true; approval: Approval } | { ok: false; message: string };

/** Why a decision changed nothing: read after the conditional update matched no row. */
async function refusal(store: ConsoleStore, id: string, checker: string): Promise<Decision> {
  const row = await store.selectFrom("console_approvals").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return { ok: false, message: "No such approval" };
  const approval = approvalOf(row);
  if (approval.status !== "pending") return { ok: false, message: `Already ${approval.status}` };
  if (approval.maker === checker) return { ok: false, message: "The maker cannot approve their own request" };
  return { ok: false, message: "Not approved" };
}

/**
 * Claims a pending, unexpired approval for a checker who is not its maker: one conditional update,
 * so of two checkers racing on two console instances exactly one gets the approval back.
 */
export async function claimApproval(store: ConsoleStore, id: string, checker: string): Promise<Decision> {
  const row = await store
    .updateTable("console_approvals")
    .set({ status: "approved", checker, decided_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("maker", "<>", checker)
    .where("expires_at", ">", sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  return row ? { ok: true, approval: approvalOf(row) } : refusal(store, id, checker);
}

/** Closes a pending approval unperformed; its maker may withdraw it too. */
export async function rejectApproval(store: ConsoleStore, id: string, checker: string): Promise<Decision> {
  const row = await store
    .updateTable("console_approvals")
    .set({ status: "rejected", checker, decided_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("expires_at", ">", sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  return row ? { ok: true, approval: approvalOf(row) } : refusal(store, id, "");
}

/** What performing the claimed call answered. */
export async function recordPerformed(store: ConsoleStore, id: string, outcome: NonNullable<Approval["outcome"]>, message: string): Promise<void> {
  await store.updateTable("console_approvals").set({ outcome, message }).where("id", "=", id).execute();
}

/** The approvals still open (pending, not expired), oldest first. */
export async function listPending(store: ConsoleStore): Promise<Approval[]> {
  const rows = await store
    .selectFrom("console_approvals")
    .selectAll()
    .where("status", "=", "pending")
    .where("expires_at", ">", sql<Date>`now()`)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => approvalOf(row));
}

export async function countPending(store: ConsoleStore): Promise<number> {
  const { count } = await store
    .selectFrom("console_approvals")
    .select(sql<string>`count(*)`.as("count"))
    .where("status", "=", "pending")
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function readApproval(store: ConsoleStore, id: string): Promise<Approval | null> {
  const row = await store.selectFrom("console_approvals").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? approvalOf(row) : null;
}
