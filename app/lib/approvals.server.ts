/**
 * /approvals on the server (issue 19, ADR 0009): the held four-eyes actions, a checker's approve
 * (claim, then perform the maker's exact request once, as the checker) or reject, the super
 * admin's thresholds (audited), and the status line's count.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { RequestOf } from "./api-routes.server";
import { ApiError, moneyCall } from "./api.server";
import { NO_SUBJECT, recordAudit, type FourEyes } from "./audit.server";
import type { ConsoleCall } from "./audit-labels";
import { sendSettlements } from "./bets.server";
import { auditKindOfJob, recordedRequest, type HeldJob } from "./four-eyes.server";
import { createJob } from "./store/jobs.server";
import { SETTLE_CHUNK_SIZE, type StoredSettlement } from "../machines/settlement.machine";
import type { AuditDraft } from "./store/audit-log.server";
import { approvalDecisionSchema, thresholdsSchema } from "./forms/four-eyes";
import { readForm, refuse, runForm } from "./forms/run-form.server";
import { PERMISSION_DENIED, requireAccess, storeOf } from "./guards.server";
import type { Operator } from "./operator";
import { deskOfAccount, mayOpen, mayUse, SCREENS, type Access } from "./screens";
import { actorOf, callerOf, performApproved, requireSession } from "./session.server";
import {
  claimApproval,
  countPending,
  listPending,
  readApproval,
  readThresholds,
  recordPerformed,
  rejectApproval,
  saveThresholds,
  ACCOUNT_JOB,
  isJobCall,
  SETTLE_JOB,
  type Approval,
  FOUR_EYES_OFF,
  type FourEyesThresholds,
  type HeldCall,
} from "./store/four-eyes.server";
import { accountItemAction, isAccountJobKind } from "./account-jobs";
import { runApprovedAccountJob } from "./accounts.server";
import { ROLE } from "../../protocol/wire";
import { reauthNeeded } from "./mfa/reauth.server";


/** Who may approve a held call: whoever may make it (the platform checks the checker's token again). */
function accessOf(approval: Approval): Access[] {
  if (approval.call === "resettleBet") return [{ audience: "superAdmin" }];
  if (approval.call === SETTLE_JOB) return [SCREENS["pending-sport-bets"]];
  if (approval.call === "updateDeposit") return [SCREENS.deposits];
  if (approval.call === "updateWithdraw") return [SCREENS.withdraws];
  if (approval.call === ACCOUNT_JOB) return [...new Set(accountActionsOf(approval.request as HeldJob).map(deskOfAccount))];
  return [deskOfAccount(approval.request as RequestOf<"userDeposit">)];
}

const mayDecide = (approval: Approval, operator: Operator) => accessOf(approval).every((access) => mayUse(access, operator));

/** A held bulk job's actions (each checked when it was held; one that no longer reads is its desk's anyway). */
const accountActionsOf = ({ kind, items }: HeldJob) =>
  isAccountJobKind(kind) ? items.map((item) => accountItemAction(kind, item) ?? { isPartner: false }) : [];

const operatorOf = (request: Request, context: AppLoadContext) => requireAccess(request, context, SCREENS.approvals);

/** An approval as the browser gets it. */
export type ApprovalRow = Pick<Approval, "id" | "call" | "summary" | "reason" | "maker"> & {
  createdAt: string;
  expiresAt: string;
  /** Not the maker, and entitled to the call. */
  mayApprove: boolean;
};

export async function loadApprovals(request: Request, context: AppLoadContext) {
  const operator = await operatorOf(request, context);
  const store = storeOf(context);
  const [pending, thresholds] = await Promise.all([listPending(store), readThresholds(store)]);
  const rows: ApprovalRow[] = pending
    .filter((approval) => mayDecide(approval, operator))
    .map(({ id, call, summary, reason, maker, createdAt, expiresAt }) => ({
      id,
      call,
      summary,
      reason,
      maker,
      createdAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      mayApprove: maker !== operator.username,
    }));
  return { rows, thresholds, mayConfigure: operator.role === ROLE.superAdmin };
}
export type ApprovalsData = Awaited<ReturnType<typeof loadApprovals>>;

/** The status line's count of open approvals; null where the operator may not open /approvals. */
export const approvalCount = (context: AppLoadContext, operator: Operator): Promise<number | null> =>
  context.store && mayOpen(SCREENS.approvals, operator) ? countPending(context.store) : Promise.resolve(null);

/**
 * Home's four-eyes line: the open approvals this operator may decide and did not make, their own
 * waiting for someone else, and whether any threshold is on.
 */
export async function approvalsWaiting(context: AppLoadContext, operator: Operator) {
  const store = storeOf(context);
  const [pending, thresholds] = await Promise.all([listPending(store), readThresholds(store)]);
  // A threshold is a field that is null or false when off (windows and expiry are not thresholds).
  const thresholdOn = ([field, off]: [string, unknown]) => (off === null || off === false) && thresholds[field as keyof FourEyesThresholds] !== off;
  return {
    forYou: pending.filter((approval) => approval.maker !== operator.username && mayDecide(approval, operator)).length,
    yours: pending.filter((approval) => approval.maker === operator.username).length,
    on: Object.entries(FOUR_EYES_OFF).some(thresholdOn),
  };
}

/** Claims the approval, then performs the maker's exact request as the checker, once. */
async function approve(request: Request, context: AppLoadContext, approval: Approval, checker: string): Promise<string> {
  const store = storeOf(context);
  const claimed = await claimApproval(store, approval.id, checker);
  if (!claimed.ok) throw new ApiError(claimed.message, 409);
  const fourEyes = { maker: approval.maker, checker };
  if (isJobCall(approval.call)) return runApprovedJob(request, context, approval, fourEyes);
  try {
    // Only the holdable calls reach here (HOLDABLE_CALLS); each body is the maker's as sent, its
    // account named in the trail as the maker's form named it.
    const { call } = approval;
    const label = { accountName: approval.accountName ?? undefined };
    if (call === "resettleBet") await performApproved(request, context, call, approval.request as RequestOf<"resettleBet">, fourEyes, label);
    else if (call === "updateDeposit") await moneyCall(performApproved(request, context, call, approval.request as RequestOf<"updateDeposit">, fourEyes, label));
    else if (call === "updateWithdraw") await moneyCall(performApproved(request, context, call, approval.request as RequestOf<"updateWithdraw">, fourEyes, label));
    else await moneyCall(performApproved(request, context, call as "userDeposit", approval.request as RequestOf<"userDeposit">, fourEyes, label));
  } catch (error) {
    if (error instanceof ApiError) await recordPerformed(store, approval.id, error.outcomeUnknown ? "unknown" : "refused", error.message);
    throw error;
  }
  await recordPerformed(store, approval.id, "ok", "");
  return `Approved and performed: ${approval.summary}`;
}

/**
 * An approved job: stored now as the checker's (so a restart leaves it in their /jobs to resume),
 * then sent item by item (a settlement chunk by chunk), each item claimed before it goes upstream,
 * so it runs once.
 */
async function runApprovedJob(request: Request, context: AppLoadContext, approval: Approval, fourEyes: FourEyes): Promise<string> {
  const store = storeOf(context);
  const job = approval.request as HeldJob;
  const id = await createJob(store, { operator: fourEyes.checker, ...job });
  const { kind } = job;
  const { done, failed } = isAccountJobKind(kind)
    ? await runApprovedAccountJob(request, context, id, { kind, items: job.items }, fourEyes)
    : await runApprovedSettlements(request, context, id, job);
  const outcome = `${done} ${kind === "settle" ? "settled" : "done"}, ${failed} failed`;
  await recordPerformed(store, approval.id, failed === 0 ? "ok" : "refused", outcome);
  const message = `${approval.summary}: ${outcome} (four-eyes: made by ${fourEyes.maker}, approved by ${fourEyes.checker})`;
  await recordConsoleAction(request, context, { call: approval.call, kind: auditKindOfJob(kind), message, request: { job: id, items: job.items.length }, answer: { approval: approval.id } });
  return `Approved and performed: ${approval.summary}: ${outcome}`;
}

async function runApprovedSettlements(request: Request, context: AppLoadContext, jobId: string, job: HeldJob) {
  let failed = 0;
  for (let start = 0; start < job.items.length; start += SETTLE_CHUNK_SIZE) {
    const chunk = job.items.slice(start, start + SETTLE_CHUNK_SIZE).map((item) => item.payload as StoredSettlement<unknown>);
    const { results } = await sendSettlements(request, context, jobId, chunk);
    failed += results.filter((result) => result.error !== undefined).length;
  }
  return { done: job.items.length - failed, failed };
}

/** An entry for what the console itself decides (no upstream call): by the signed-in operator, ok. */
async function recordConsoleAction(
  request: Request,
  context: AppLoadContext,
  entry: Pick<AuditDraft, "kind" | "message" | "request" | "answer"> & { call: ConsoleCall | HeldCall },
): Promise<void> {
  const session = await requireSession(request);
  await recordAudit(context.store, {
    ...(await actorOf(session, callerOf(request, context, session.token))),
    ...NO_SUBJECT,
    outcome: "ok",
    status: null,
    ...entry,
  });
}

export async function approvalsAction(request: Request, context: AppLoadContext) {
  const form = Object.fromEntries(await readForm(request));
  const operator = await operatorOf(request, context);
  const store = storeOf(context);
  // Changing the thresholds and approving a held action need a recent second factor (issue 30).
  const asked = form.intent === "thresholds" || form.intent === "approve" ? await reauthNeeded(request, context) : null;
  if (asked) return asked;
  if (form.intent === "thresholds") {
    if (operator.role !== ROLE.superAdmin) return refuse(PERMISSION_DENIED);
    return runForm(form, thresholdsSchema, async ({ intent: _intent, ...after }) => {
      const before = await readThresholds(store);
      await saveThresholds(store, after);
      await recordConsoleAction(request, context, { call: "fourEyesThresholds", kind: "settings", message: "Four-eyes thresholds saved", request: after, answer: { before } });
      return "Four-eyes thresholds saved";
    });
  }
  return runForm(form, approvalDecisionSchema, async ({ intent, id }) => {
    const approval = await readApproval(store, id);
    if (!approval || !mayDecide(approval, operator)) throw new ApiError(PERMISSION_DENIED, 403);
    if (intent === "approve") return approve(request, context, approval, operator.username);
    const rejected = await rejectApproval(store, id, operator.username);
    if (!rejected.ok) throw new ApiError(rejected.message, 409);
    const message = `Rejected: ${approval.summary} (four-eyes: made by ${approval.maker}, rejected by ${operator.username})`;
    await recordConsoleAction(request, context, { call: "fourEyesReject", kind: "approval", message, request: recordedRequest(approval.call, approval.request), answer: { approval: id } });
    return `Rejected: ${approval.summary}`;
  });
}
