/**
 * Four-eyes on the way out (issues 19 and 29, ADR 0009): callAsOperator performs a call a threshold
 * may hold through here (only those read the thresholds). Above one, the call is not made: it is
 * kept as a pending approval with the maker and its exact body (its requestId too), and the
 * operator is told it was sent for approval. An approval is measured by what it credits or pays
 * out, read from the request and the API; while a rolling window is on, every credit, debit and
 * approval let through is counted in it before it is sent.
 */
import { REQUEST_STATUS, type DepositRow, type WithdrawRow } from "../../protocol/wire";
import type { RequestOf, CallName } from "./api-routes.server";
import { ApiError, callApi, type Caller } from "./api.server";
import { AUDITED_CALLS, NO_SUBJECT, recordAudit, redact, subjectOf, type AuditActor, type AuditKind, type AuditLabel } from "./audit.server";
import type { JobKind } from "../machines/bulk.machine";
import { accountItemAction } from "./account-jobs";
import { depositCredit } from "./deposit-credit";
import {
  ACCOUNT_JOB,
  countMove,
  createApproval,
  cumulativeOn,
  holdReason,
  HOLDABLE_CALLS,
  isApproval,
  isCountedMove,
  isJobCall,
  jobHoldReason,
  readThresholds,
  SETTLE_JOB,
  uncountMove,
  type HeldCall,
  type JobWords,
  type Move,
} from "./store/four-eyes.server";
import type { JobItemDraft } from "./store/jobs.server";
import type { ConsoleStore } from "./store/schema";

/** Thrown instead of the call's answer: the form shows its message as the outcome, not as a failure. */
export class HeldForApproval extends Error {
  override readonly name = "HeldForApproval";
}

/** A decided request as four-eyes measures it: whose it is, and what approving it moves (null: could not be read). */
type Decided = { account: string; moved: number | null };

/** What the approvals list shows of a held call; an approval names what it moves. */
function summaryOf(name: CallName, body: unknown, decided: Decided | null | undefined): string {
  switch (name) {
    case "userDeposit":
    case "userWithdraw": {
      const { user, isPartner, amount, remark } = body as RequestOf<"userDeposit">;
      const what = name === "userDeposit" ? "Deposit" : "Withdraw";
      return `${what} ${amount} · ${isPartner ? "panel" : "user"} ${user}${remark ? ` · ${remark}` : ""}`;
    }
    case "updateDeposit":
    case "updateWithdraw": {
      const { _id } = body as RequestOf<"updateDeposit">;
      const request = `Approve ${name === "updateDeposit" ? "deposit" : "withdrawal"} request ${_id}`;
      if (decided === undefined) return request;
      const moves = name === "updateDeposit" ? "credits" : "pays out";
      return `${request} · ${moves} ${decided?.moved ?? "an amount that could not be read"}${decided ? ` · ${decided.account}` : ""}`;
    }
    case "resettleBet": {
      const { bet, status } = body as RequestOf<"resettleBet">;
      return `Resettle bet ${bet._id} as ${status}`;
    }
    default:
      return name;
  }
}

/** The longest scan of the pending list for a decided request (a spec API pages by 50). */
const REQUEST_SCAN_PAGES = 20;

/**
 * A pending request, read from the pending list as the operator: the decision's body names only
 * its id. Null when it is not found or the list cannot be read.
 */
async function pendingRequest(name: "updateDeposit" | "updateWithdraw", id: string, caller: Caller): Promise<DepositRow | WithdrawRow | null> {
  const list = name === "updateDeposit" ? "deposits" : "withdraws";
  try {
    for (let page = 1, seen = 0; page <= REQUEST_SCAN_PAGES; page++) {
      const answer = await callApi(list, { status: REQUEST_STATUS.pending, page }, caller);
      const row = answer.items.find((item) => item._id === id);
      if (row) return row;
      seen += answer.items.length;
      if (answer.items.length === 0 || seen >= answer.total) return null;
    }
    return null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * A coupon's bonus percentage as the operator reads the coupons: 0 for a code the API does not
 * know (it credits nothing, docs/protocol.md "Deposit success"), null when the list cannot be read.
 */
async function couponPercent(code: string, caller: Caller): Promise<number | null> {
  try {
    return (await callApi("coupons", undefined, caller)).find((coupon) => coupon.couponCode === code)?.bonus ?? 0;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * What approving the request moves in INR: a withdrawal's amount, or what a deposit credits (the
 * USDT rate applied, bonuses and its coupon included); null (or no account) when it cannot be read.
 */
async function decidedRequest(name: "updateDeposit" | "updateWithdraw", body: RequestOf<"updateDeposit">, caller: Caller): Promise<Decided | null> {
  const row = await pendingRequest(name, body._id, caller);
  if (!row) return null;
  const account = `user ${row.user}`;
  if (name === "updateWithdraw") return { account, moved: row.amount };
  const { couponCode } = row as DepositRow;
  const percent = couponCode === null ? 0 : await couponPercent(couponCode, caller);
  return { account, moved: percent === null ? null : depositCredit(row as DepositRow, body, percent) };
}

/** The move a counted call makes, or null when its amount or account could not be read. */
function moveOf(name: CallName, body: unknown, decided: Decided | null | undefined, operator: string): Move | null {
  if (name === "userDeposit" || name === "userWithdraw") {
    const { user, isPartner, amount, requestId } = body as RequestOf<"userDeposit">;
    return { operator, account: `${isPartner ? "panel" : "user"} ${user}`, call: name, amount, reference: requestId ?? "" };
  }
  if (!decided || decided.moved === null) return null;
  return { operator, account: decided.account, call: name, amount: decided.moved, reference: (body as RequestOf<"updateDeposit">)._id };
}

/**
 * Performs the call unless a threshold holds it (then throws HeldForApproval, and nothing is sent);
 * a store not open holds nothing. A move counted in a rolling window that the API refuses (nothing
 * moved) is uncounted; one with no answer stays counted, as it may have moved.
 */
export async function performUnlessHeld<K extends CallName, T>(
  store: ConsoleStore | undefined,
  actor: () => Promise<AuditActor>,
  caller: Caller,
  name: K,
  body: RequestOf<K>,
  label: AuditLabel | undefined,
  perform: () => Promise<T>,
): Promise<T> {
  if (!store || !HOLDABLE_CALLS.has(name)) return perform();
  const thresholds = await readThresholds(store);
  const counting = cumulativeOn(thresholds) && isCountedMove(name, body);
  const decided =
    isApproval(name, body) && (thresholds.decisionAbove !== null || counting)
      ? await decidedRequest(name, body as RequestOf<"updateDeposit">, caller)
      : undefined;
  let reason = holdReason(thresholds, name, body, decided === undefined ? undefined : (decided?.moved ?? null));
  let counted: bigint | null = null;
  if (!reason && counting) {
    const move = moveOf(name, body, decided, (await actor()).operator);
    const result = move ? await countMove(store, move) : { reason: "a rolling window is on (its amount could not be read)" };
    if ("reason" in result) reason = result.reason;
    else counted = result.counted;
  }
  if (reason) {
    const rule = AUDITED_CALLS[name]!;
    const summary = summaryOf(name, body, decided);
    throw new HeldForApproval(
      await hold(store, await actor(), { call: name, request: body, summary, reason }, thresholds.expiryHours, {
        kind: rule.kind,
        ...subjectOf(rule.subject?.(body as never, null) ?? {}, label),
        ...(decided?.moved != null && { amount: decided.moved }),
      }),
    );
  }
  if (counted === null) return perform();
  try {
    return await perform();
  } catch (error) {
    if (error instanceof ApiError && !error.outcomeUnknown) await uncountMove(store, counted);
    throw error;
  }
}

/**
 * Keeps the action as a pending approval and writes the trail's first line of it: held, by its
 * maker, with the exact request. Answers what the maker is told.
 */
async function hold(
  store: ConsoleStore,
  maker: AuditActor,
  held: { call: HeldCall; request: unknown; summary: string; reason: string },
  expiryHours: number,
  entry: { kind: string; accountId?: string | null; accountName?: string | null; amount?: number | null },
): Promise<string> {
  const approval = await createApproval(store, { ...held, maker: maker.operator, accountName: entry.accountName }, expiryHours);
  await recordAudit(store, {
    ...maker,
    call: held.call,
    ...NO_SUBJECT,
    ...entry,
    outcome: "held",
    status: null,
    message: `Held for approval (four-eyes: ${held.reason}): ${held.summary}`,
    request: recordedRequest(held.call, held.request),
    answer: { approval: approval.id },
  });
  return `Sent for approval (four-eyes): ${held.reason}`;
}

/**
 * A held request as the trail records it: redacted; a job as its title and its items'
 * requestIds (the payloads stay on the approval, not in every entry).
 */
export function recordedRequest(call: HeldCall, request: unknown): unknown {
  if (!isJobCall(call)) return redact(request);
  const { title, items } = request as HeldJob;
  return { title, requestIds: items.map((item) => item.requestId) };
}

/** A held job: its title, kind and every item with its requestId and payload, as confirmed. */
export type HeldJob = { kind: JobKind; title: string; items: Required<JobItemDraft>[] };

/** A stored settlement item's stake, or null when its payload has none. */
const stakeOf = (payload: unknown): number | null => {
  const amount = (payload as { bet?: { amount?: unknown } } | null)?.bet?.amount;
  return typeof amount === "number" && Number.isFinite(amount) ? amount : null;
};

/**
 * What one item of a job moves, for the total threshold: a bet's stake, a transfer's amount
 * (null where it cannot be read); a switch moves none.
 */
function amountOf(kind: JobKind, item: Required<JobItemDraft>): number | null {
  if (kind === "settle") return stakeOf(item.payload);
  if (kind === "switch") return 0;
  const action = accountItemAction(kind, item);
  return action && "amount" in action ? action.amount : null;
}

/** How the hold names a job's items and its total, and how the trail files it. */
const JOB_WORDS = {
  settle: { items: "bets", total: "stakes", kind: "settlement" },
  deposit: { items: "accounts", total: "total", kind: "money" },
  withdraw: { items: "accounts", total: "total", kind: "money" },
  switch: { items: "accounts", total: "total", kind: "permissions" },
} as const satisfies Record<JobKind, JobWords & { kind: AuditKind }>;

/** How the trail files a job's entries. */
export const auditKindOfJob = (kind: JobKind): AuditKind => JOB_WORDS[kind].kind;

/**
 * A job above a job threshold (a settlement or a bulk credit, debit or switch) is kept as a
 * pending approval instead of being stored to run: answers what the maker is told, or null when
 * it runs now. An amount that cannot be read holds the job while the total threshold is on,
 * rather than let it pass unchecked.
 */
export async function holdJobAboveThreshold(store: ConsoleStore | undefined, maker: AuditActor, job: HeldJob): Promise<string | null> {
  if (!store) return null;
  const thresholds = await readThresholds(store);
  if (thresholds.jobItemsAbove === null && thresholds.jobTotalAbove === null) return null;
  const words = JOB_WORDS[job.kind];
  const amounts = job.items.map((item) => amountOf(job.kind, item));
  const total = Math.round(amounts.reduce<number>((sum, amount) => sum + (amount ?? 0), 0) * 100) / 100;
  const unread = thresholds.jobTotalAbove !== null && amounts.some((amount) => amount === null);
  const reason = unread
    ? `${words.total} above ${thresholds.jobTotalAbove} (an amount could not be read)`
    : jobHoldReason(thresholds, job.items.length, total, words);
  if (!reason) return null;
  const moves = job.kind === "switch" ? "" : `, ${words.total} ${total}`;
  const summary = `${job.title}: ${job.items.length} ${words.items}${moves}`;
  const call = job.kind === "settle" ? SETTLE_JOB : ACCOUNT_JOB;
  const amount = job.kind === "switch" ? null : total;
  return hold(store, maker, { call, request: job, summary, reason }, thresholds.expiryHours, { kind: words.kind, amount });
}
