/**
 * Jobs that survive a reload or a restart (issue 19, ADR 0009), on the server: the job written
 * when confirmed, each chunk's items claimed before they go upstream and answered after, and a
 * resume's check of the items that were in flight when the console stopped: a bet by its current
 * status upstream, a transfer only where the API is known to honour its requestId. What cannot be
 * checked is answered "unknown: check before retrying" and never sent again by the console.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { ROLE } from "../../protocol/wire";
import { UNKNOWN_OUTCOME, type JobKind } from "../machines/bulk.machine";
import { withAuditJob } from "./audit.server";
import { SCAN_LIMIT } from "./list";
import type { Operator } from "./operator";
import { mayOpen, SCREENS } from "./screens";
import type { ChunkResult } from "./bets.server";
import type { SettlementScope } from "./forms/settlement";
import { claimItems, createJob, jobItems, jobOf, openJobs, recordAnswers, reopenItem, type ItemAnswer, type JobItem } from "./store/jobs.server";
import type { ConsoleStore } from "./store/schema";
import { actorOf, callerOf, requireSession } from "./session.server";
import { holdJobAboveThreshold } from "./four-eyes.server";
import { accountItemAction, isAccountJobKind } from "./account-jobs";

/** The kinds of job (bulk.machine's JobKind); each decides how an item in flight is checked. */
const JOB_KINDS = ["settle", "deposit", "withdraw", "switch"] as const satisfies readonly JobKind[];

/** Items one job may hold: a settlement set is read up to the scan's bound. */
const JOB_ITEM_LIMIT = SCAN_LIMIT;

export const jobSchema = z.object({
  kind: z.enum(JOB_KINDS),
  title: z.string().min(1).max(120),
  items: z
    .array(z.object({ key: z.string().min(1).max(64), label: z.string().max(200), requestId: z.string().min(1).max(64), payload: z.unknown() }))
    .min(1)
    .max(JOB_ITEM_LIMIT),
});

/** What an item in flight turned out to be: not applied (send it again), or its answer. */
export type Found = "resend" | Omit<ItemAnswer, "key">;
export type InFlightCheck = (items: readonly JobItem[]) => Promise<Found[]>;

/**
 * Checks the items sent with no answer recorded, reopening those the API shows were not applied
 * and answering the rest; answers the job's items as they now stand.
 */
export async function resolveInFlight(store: ConsoleStore, jobId: string, check: InFlightCheck): Promise<JobItem[]> {
  const inFlight = (await jobItems(store, jobId)).filter((item) => item.sent && item.outcome === null);
  if (inFlight.length > 0) {
    const found = await check(inFlight);
    for (const [index, item] of inFlight.entries()) {
      const answer = found[index]!;
      if (answer === "resend") await reopenItem(store, jobId, item.key);
      else await recordAnswers(store, jobId, [{ key: item.key, ...answer }]);
    }
  }
  return jobItems(store, jobId);
}

/** What an item in flight is answered when the API cannot show whether it was applied. */
export const unknownAnswer = { outcome: "unknown", message: UNKNOWN_OUTCOME } as const;

/** The pending bets of these scopes, and whether the queue was read completely. */
export type PendingOf = (scopes: readonly SettlementScope[]) => Promise<{ complete: boolean; pending: ReadonlySet<string> }>;

/**
 * A bet in flight: still pending upstream, it was not settled and is sent again; gone from a
 * queue read completely, it was settled (the platform settles a bet once); else unknown.
 */
export const settledBetCheck =
  (pendingOf: PendingOf): InFlightCheck =>
  async (items) => {
    const scopes = new Map(items.map((item) => [JSON.stringify(scopeOfPayload(item.payload)), scopeOfPayload(item.payload)]));
    const { complete, pending } = await pendingOf([...scopes.values()]);
    return items.map((item): Found =>
      !complete ? unknownAnswer : pending.has(item.key) ? "resend" : { outcome: "done", message: "Found settled when resumed" },
    );
  };

const scopeOfPayload = (payload: unknown): SettlementScope => (payload as { scope?: SettlementScope } | null)?.scope ?? {};

export function storeOf(context: AppLoadContext): ConsoleStore {
  if (!context.store) throw new Response("The console's store is not open", { status: 503 });
  return context.store;
}

/** The operator a job belongs to (as the audit trail names them), and whether they see everyone's (the super admin). */
export async function ownerOf(request: Request, context: AppLoadContext) {
  const session = await requireSession(request);
  const { operator, operatorRole } = await actorOf(session, callerOf(request, context, session.token));
  return { operator, everyone: operatorRole === ROLE.superAdmin };
}

/** The status line's count of unfinished jobs (the operator's, everyone's for role 1); null where /jobs is not theirs. */
export const jobCount = async (context: AppLoadContext, operator: Operator): Promise<number | null> =>
  context.store && mayOpen(SCREENS.jobs, operator)
    ? (await openJobs(context.store, operator.role === ROLE.superAdmin ? null : operator.username)).length
    : null;

const withPayload = <T extends { payload?: unknown }>(item: T) => ({ ...item, payload: item.payload ?? null });

/** A bulk job's item that is not its desk's action of the job's kind: the job is refused whole. */
function invalidAccountItem(job: z.infer<typeof jobSchema>): string | null {
  const { kind } = job;
  if (!isAccountJobKind(kind)) return null;
  const at = job.items.findIndex((item) => accountItemAction(kind, withPayload(item)) === null);
  return at < 0 ? null : `Item ${at + 1} (${job.items[at]!.label}) is not a ${kind} of its account`;
}

/** POST /resources/jobs: a confirmed job, written before its first chunk is sent; answers its id, or `held` for four-eyes. */
export async function startJob(request: Request, context: AppLoadContext) {
  const parsed = jobSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false, message: parsed.error.issues[0]!.message }, { status: 400 });
  const job = parsed.data;
  const invalid = invalidAccountItem(job);
  if (invalid) return Response.json({ ok: false, message: invalid }, { status: 400 });
  const session = await requireSession(request);
  const maker = await actorOf(session, callerOf(request, context, session.token));
  // Four-eyes (issue 19): a job above a job threshold waits for a second operator, unstored and unsent.
  const held = await holdJobAboveThreshold(context.store, maker, { ...job, items: job.items.map(withPayload) });
  if (held) return Response.json({ ok: true, held });
  const id = await createJob(storeOf(context), { operator: maker.operator, ...job });
  return Response.json({ ok: true, id });
}

/** The unfinished jobs the operator may resume: their own, or everyone's for the super admin. */
export async function loadJobs(request: Request, context: AppLoadContext) {
  const { operator, everyone } = await ownerOf(request, context);
  return { jobs: await openJobs(storeOf(context), everyone ? null : operator), everyone };
}
export type JobsData = Awaited<ReturnType<typeof loadJobs>>;

/** A claimed item as the store keeps it, with its job's kind; null for an item of no stored job. */
export type Claimed = { kind: string; item: JobItem } | null;

/**
 * Runs one chunk of a stored job: only the items this request claims go upstream (an item sent
 * before is answered as the store has it, or as in flight), and the answers are recorded before
 * the browser sees them. Without a job id (no store), every item is sent.
 */
export async function runJobChunk(
  request: Request,
  context: AppLoadContext,
  jobId: string | undefined,
  keys: readonly string[],
  send: (claimed: ReadonlyMap<string, Claimed>) => Promise<ChunkResult[]>,
): Promise<ChunkResult[]> {
  if (!jobId || !context.store) return send(new Map(keys.map((key) => [key, null])));
  const store = context.store;
  const { operator, everyone } = await ownerOf(request, context);
  const job = await jobOf(store, jobId, operator, everyone);
  if (!job) throw new Response("No such job", { status: 404 });
  const claimed = new Map((await claimItems(store, jobId, keys)).map((item) => [item.key, { kind: job.kind, item }]));
  // Each item's entry in the trail names the job (issue 19): the trail shows every item sent once, under it.
  const results = claimed.size > 0 ? await withAuditJob(jobId, () => send(claimed)) : [];
  await recordAnswers(
    store,
    jobId,
    results.map((result) => ({ key: result.key, outcome: !result.error ? "done" : result.unknown ? "unknown" : "refused", message: result.error ?? "" })),
  );
  const skipped = keys.filter((key) => !claimed.has(key));
  if (skipped.length === 0) return results;
  const standing = new Map((await jobItems(store, jobId)).map((item) => [item.key, item]));
  return [...results, ...skipped.map((key) => standingAnswer(key, standing.get(key)))];
}

/** An item this chunk did not send: its recorded answer, or in flight elsewhere (unknown). */
function standingAnswer(key: string, item: JobItem | undefined): ChunkResult {
  if (item?.outcome === "done") return { key };
  if (item?.outcome === "refused") return { key, error: item.message ?? "" };
  return { key, error: item?.message || "sent before, no answer recorded", unknown: true };
}
