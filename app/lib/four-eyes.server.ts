/**
 * Four-eyes on the way out (issue 19, ADR 0009): callAsOperator asks here before a call a threshold
 * may hold (only those read the thresholds; a decision also reads its request's amount). Above one, the call is not made: it is kept as a pending approval with the maker and
 * its exact body (its requestId too), and the operator is told it was sent for approval.
 */
import { REQUEST_STATUS } from "../../protocol/wire";
import type { RequestOf, CallName } from "./api-routes.server";
import { ApiError, callApi, type Caller } from "./api.server";
import { AUDITED_CALLS, NO_SUBJECT, recordAudit, redact, type AuditActor, type AuditKind } from "./audit.server";
import type { JobKind } from "../machines/bulk.machine";
import { accountItemAction } from "./account-jobs";
import {
  ACCOUNT_JOB,
  createApproval,
  holdReason,
  HOLDABLE_CALLS,
  isJobCall,
  jobHoldReason,
  needsRequestAmount,
  readThresholds,
  SETTLE_JOB,
  type HeldCall,
  type JobWords,
} from "./store/four-eyes.server";
import type { JobItemDraft } from "./store/jobs.server";
import type { ConsoleStore } from "./store/schema";

/** Thrown instead of the call's answer: the form shows its message as the outcome, not as a failure. */
export class HeldForApproval extends Error {
  override readonly name = "HeldForApproval";
}

/** What the approvals list shows of a held call. */
function summaryOf(name: CallName, body: unknown): string {
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
      return `Approve ${name === "updateDeposit" ? "deposit" : "withdrawal"} request ${_id}`;
    }
    case "resettleBet": {
      const { bet, status } = body as RequestOf<"resettleBet">;
      return `Resettle bet ${bet._id} as ${status}`;
    }
    default:
      return name;
  }
}

/** The longest scan of the pending list for a decided request's amount (a spec API pages by 50). */
const AMOUNT_SCAN_PAGES = 20;

/**
 * A pending request's amount, read from the pending list as the operator: the decision's body
 * names only its id. Null when it is not found or the list cannot be read.
 */
async function pendingAmount(name: "updateDeposit" | "updateWithdraw", id: string, caller: Caller): Promise<number | null> {
  const list = name === "updateDeposit" ? "deposits" : "withdraws";
  try {
    for (let page = 1, seen = 0; page <= AMOUNT_SCAN_PAGES; page++) {
      const answer = await callApi(list, { status: REQUEST_STATUS.pending, page }, caller);
      const row = answer.items.find((item) => item._id === id);
      if (row) return row.amount;
      seen += answer.items.length;
      if (answer.items.length === 0 || seen >= answer.total) return null;
    }
    return null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Holds the call when a threshold says so (throws HeldForApproval); a store not open holds nothing. */
export async function holdAboveThreshold<K extends CallName>(
  store: ConsoleStore | undefined,
  actor: () => Promise<AuditActor>,
  caller: Caller,
  name: K,
  body: RequestOf<K>,
): Promise<void> {
  if (!store || !HOLDABLE_CALLS.has(name)) return;
  const thresholds = await readThresholds(store);
  const amount = needsRequestAmount(thresholds, name, body)
    ? await pendingAmount(name as "updateDeposit", (body as RequestOf<"updateDeposit">)._id, caller)
    : undefined;
  const reason = holdReason(thresholds, name, body, amount);
  if (!reason) return;
  const rule = AUDITED_CALLS[name]!;
  throw new HeldForApproval(
    await hold(store, await actor(), { call: name, request: body, summary: summaryOf(name, body), reason }, thresholds.expiryHours, {
      kind: rule.kind,
      ...rule.subject?.(body as never, null),
    }),
  );
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
  const approval = await createApproval(store, { ...held, maker: maker.operator }, expiryHours);
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
