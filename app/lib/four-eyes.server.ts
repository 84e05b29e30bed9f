/**
 * Four-eyes on the way out (issue 19, ADR 0009): callAsOperator asks here before a call a threshold
 * may hold. Above one, the call is not made: it is kept as a pending approval with the maker and
 * its exact body (its requestId too), and the operator is told it was sent for approval.
 */
import type { RequestOf, CallName } from "./api-routes.server";
import type { AuditActor } from "./audit.server";
import { createApproval, holdReason, HOLDABLE_CALLS, readThresholds } from "./store/four-eyes.server";
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
    case "resettleBet": {
      const { bet, status } = body as RequestOf<"resettleBet">;
      return `Resettle bet ${bet._id} as ${status}`;
    }
    default:
      return name;
  }
}

/** Holds the call when a threshold says so (throws HeldForApproval); a store not open holds nothing. */
export async function holdAboveThreshold<K extends CallName>(
  store: ConsoleStore | undefined,
  actor: () => Promise<AuditActor>,
  name: K,
  body: RequestOf<K>,
): Promise<void> {
  if (!store || !HOLDABLE_CALLS.has(name)) return;
  const thresholds = await readThresholds(store);
  const reason = holdReason(thresholds, name, body);
  if (!reason) return;
  const { operator } = await actor();
  await createApproval(store, { call: name, request: body, summary: summaryOf(name, body), reason, maker: operator }, thresholds.expiryHours);
  throw new HeldForApproval(`Sent for approval (four-eyes): ${reason}`);
}
