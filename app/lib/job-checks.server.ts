/**
 * A resume's check of the items a job had in flight when the console stopped (issue 19): each
 * kind asks the API what it can. A bet by its current status (the pending queue, page by page);
 * a transfer only where the API was seen honouring requestId; a switch by the account's flag.
 */
import type { AppLoadContext } from "@remix-run/node";
import { pendingCall, pendingScan } from "./bets.server";
import { capabilities } from "./capabilities.server";
import { ownerOf, resolveInFlight, settledBetCheck, storeOf, unknownAnswer, type Found, type InFlightCheck, type PendingOf } from "./jobs.server";
import type { AccountItemPayload } from "./account-jobs";
import { ApiError } from "./api.server";
import { callAsOperator } from "./session.server";
import type { JobKind } from "../machines/bulk.machine";
import { jobOf } from "./store/jobs.server";

/** The pending queue, read page by page for each scope, as the API answers it. */
const pendingUpstream =
  (request: Request, context: AppLoadContext): PendingOf =>
  async (scopes) => {
    const pending = new Set<string>();
    let complete = true;
    for (const scope of scopes) {
      const scan = await pendingScan(pendingCall(request, context), scope);
      complete &&= scan.complete;
      for (const bet of scan.items) pending.add(bet._id);
    }
    return { complete, pending };
  };

/** A transfer in flight is sent again only to an API seen honouring requestId: it moves the money once. */
const transferCheck =
  (call: "userDeposit" | "userWithdraw"): InFlightCheck =>
  async (items) =>
    items.map(() => (capabilities.honoursRequestId(call) ? "resend" : unknownAnswer));

/**
 * A switch in flight: the account's flag read as it now stands. Already as asked, it was applied;
 * otherwise it is sent again (it sets a stated value, so sending it twice changes nothing more).
 * An account that cannot be read is unknown.
 */
const switchCheck =
  (request: Request, context: AppLoadContext): InFlightCheck =>
  (items) =>
    Promise.all(
      items.map(async (item): Promise<Found> => {
        const { user, isPartner, switch: flag, on } = (item.payload as AccountItemPayload).form as Record<string, string>;
        try {
          const current = await callAsOperator(request, context, isPartner === "true" ? "partnerPermissions" : "userPermissions", { id: user! });
          return current[flag as "bet" | "login"] === (on === "true") ? { outcome: "done", message: "Found applied when resumed" } : "resend";
        } catch (error) {
          if (error instanceof ApiError) return unknownAnswer;
          throw error;
        }
      }),
    );

function inFlightCheck(kind: JobKind, request: Request, context: AppLoadContext): InFlightCheck {
  switch (kind) {
    case "settle":
      return settledBetCheck(pendingUpstream(request, context));
    case "deposit":
      return transferCheck("userDeposit");
    case "withdraw":
      return transferCheck("userWithdraw");
    case "switch":
      return switchCheck(request, context);
  }
}

/** POST /resources/jobs/:id/resume: the in-flight check, then every item as it stands. */
export async function resumeJob(request: Request, context: AppLoadContext, id: string) {
  const { operator, everyone } = await ownerOf(request, context);
  const store = storeOf(context);
  const job = await jobOf(store, id, operator, everyone);
  if (!job) return Response.json({ ok: false, message: "No such job" }, { status: 404 });
  const items = await resolveInFlight(store, id, inFlightCheck(job.kind as JobKind, request, context));
  return Response.json({ ok: true, job: { id, kind: job.kind, title: job.title, items } });
}
