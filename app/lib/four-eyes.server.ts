/**
 * Four-eyes on the way out (issue 19, ADR 0009): callAsOperator asks here before a call a threshold
 * may hold (only those read the thresholds; a decision also reads its request's amount). Above one, the call is not made: it is kept as a pending approval with the maker and
 * its exact body (its requestId too), and the operator is told it was sent for approval.
 */
import { REQUEST_STATUS } from "../../protocol/wire";
import type { RequestOf, CallName } from "./api-routes.server";
import { ApiError, callApi, type Caller } from "./api.server";
import { AUDITED_CALLS, NO_SUBJECT, recordAudit, redact, type AuditActor } from "./audit.server";
import { createApproval, holdReason, HOLDABLE_CALLS, needsRequestAmount, readThresholds } from "./store/four-eyes.server";
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
  const maker = await actor();
  const summary = summaryOf(name, body);
  const approval = await createApproval(store, { call: name, request: body, summary, reason, maker: maker.operator }, thresholds.expiryHours);
  // The trail's first line of a four-eyes action: held, by its maker, with the exact request.
  const rule = AUDITED_CALLS[name]!;
  await recordAudit(store, {
    ...maker,
    call: name,
    kind: rule.kind,
    ...NO_SUBJECT,
    ...rule.subject?.(body as never, null),
    outcome: "held",
    status: null,
    message: `Held for approval (four-eyes: ${reason}): ${summary}`,
    request: redact(body),
    answer: { approval: approval.id },
  });
  throw new HeldForApproval(`Sent for approval (four-eyes): ${reason}`);
}
