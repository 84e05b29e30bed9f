/**
 * Jobs that survive a reload or a restart (issue 19, ADR 0009), on the server: the job written
 * when confirmed, each chunk's items claimed before they go upstream and answered after, and a
 * resume's check of the items that were in flight when the console stopped: a bet by its current
 * status upstream, a transfer only where the API is known to honour its requestId. What cannot be
 * checked is answered "unknown: check before retrying" and never sent again by the console.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { ROLE, type BetStatus, type SettlementCode, type SportsBet } from "../../protocol/wire";
import { UNKNOWN_OUTCOME, type JobKind } from "../machines/bulk.machine";
import { withAuditJob } from "./audit.server";
import { jobFileSchema } from "./bulk-file";
import { SCAN_LIMIT } from "./list";
import type { Operator } from "./operator";
import { mayOpen, SCREENS } from "./screens";
import type { ChunkResult } from "./bets.server";
import { SETTLE_CHUNK_LIMIT, SETTLED_STATUS, type SettlementScope } from "./forms/settlement";
import { SETTLE_CHUNKS_IN_FLIGHT } from "../machines/settlement.machine";
import { PERMISSION_DENIED, requireAccess, storeOf } from "./guards.server";
import { claimItems, jobItems, jobOf, openJobs, recordAnswers, reopenItem, type ItemAnswer, type JobItem } from "./store/jobs.server";
import type { ConsoleStore } from "./store/schema";
import { actorOf, callerOf, requireSession } from "./session.server";

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
  /** A job made from a file (issue 34): the preview's lines and seal, checked again before it is stored. */
  file: jobFileSchema.optional(),
  /**
   * A settlement job's first chunks, sent as it is stored (issue 35): `chunks` of `chunkSize` items from the first,
   * as the browser would send them (bulk.machine's window).
   */
  start: z.object({ chunkSize: z.number().int().min(1).max(SETTLE_CHUNK_LIMIT), chunks: z.number().int().min(1).max(SETTLE_CHUNKS_IN_FLIGHT) }).optional(),
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

/** The pending bets of these scopes by id, and whether the queue was read completely. */
export type PendingOf = (scopes: readonly SettlementScope[]) => Promise<{ complete: boolean; pending: ReadonlyMap<string, SportsBet> }>;
/** Who placed a bet and when: where its bet history is read. */
export type PlacedBet = { id: string; userId: string; createdAt: string };
/** The statuses of these settled bets as their history shows them; a bet not found is left out. */
export type SettledOf = (bets: readonly PlacedBet[]) => Promise<ReadonlyMap<string, BetStatus>>;

/** How an operator says a bet's status. */
const STATUS_WORD: Record<BetStatus, string> = { PENDING: "pending", SUCCESS: "won", FAIL: "lost", ABANDONED: "void" };

/**
 * A bet in flight (issue 29): still pending upstream, it was not settled and is sent again; gone
 * from a queue read completely, it was settled, and its history says how. Settled as the job
 * asked, it is done; settled otherwise, it is a conflict: someone else settled it, and it is
 * never counted as the job's work. A queue read in part, or an outcome that cannot be read, is
 * unknown.
 */
export const settledBetCheck =
  (pendingOf: PendingOf, settledOf: SettledOf): InFlightCheck =>
  async (items) => {
    const scopes = new Map(items.map((item) => [JSON.stringify(scopeOfPayload(item.payload)), scopeOfPayload(item.payload)]));
    const { complete, pending } = await pendingOf([...scopes.values()]);
    if (!complete) return items.map(() => unknownAnswer);
    const gone = items.flatMap((item) => {
      const placed = placedOfPayload(item.payload);
      return !pending.has(item.key) && placed ? [{ id: item.key, ...placed }] : [];
    });
    const settled = gone.length > 0 ? await settledOf(gone) : new Map<string, BetStatus>();
    return items.map((item): Found => {
      if (pending.has(item.key)) return "resend";
      const status = settled.get(item.key);
      const asked = SETTLED_STATUS[statusOfPayload(item.payload)];
      if (status === undefined || asked === undefined) return { outcome: "unknown", message: `${UNKNOWN_OUTCOME} (found settled; its outcome could not be read)` };
      return status === asked
        ? { outcome: "done", message: `Found settled as ${STATUS_WORD[status]} when resumed` }
        : { outcome: "conflict", message: `Settled elsewhere as ${STATUS_WORD[status]} (this job: ${STATUS_WORD[asked]})` };
    });
  };

type SettlementPayload = { scope?: SettlementScope; status?: SettlementCode; placed?: { userId: string; createdAt: string } } | null;
const placedOfPayload = (payload: unknown) => (payload as SettlementPayload)?.placed;
const statusOfPayload = (payload: unknown) => (payload as SettlementPayload)?.status ?? (0 as SettlementCode);
const scopeOfPayload = (payload: unknown): SettlementScope => (payload as { scope?: SettlementScope } | null)?.scope ?? {};

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

/**
 * The job, when the signed-in operator confirmed it (issue 29): a job is performed with its
 * maker's rights only, so nobody else, the super admin included, may run or resume it.
 */
export async function ownJob(request: Request, context: AppLoadContext, store: ConsoleStore, id: string) {
  const { operator } = await ownerOf(request, context);
  const job = await jobOf(store, id, operator, true);
  if (!job) throw new Response("No such job", { status: 404 });
  if (job.operator !== operator) throw new Response(`${PERMISSION_DENIED}: only ${job.operator}, who confirmed this job, may run it`, { status: 403 });
  return job;
}

/** How long /jobs keeps listing a finished job made from a file, for its result CSV. */
const FILE_RESULTS_DAYS = 7;

/** The unfinished jobs the operator may see, and those from a file of the last days (their result CSV): their own, or everyone's for the super admin (each resumed only by its maker). */
export async function loadJobs(request: Request, context: AppLoadContext) {
  await requireAccess(request, context, SCREENS.jobs);
  const { operator, everyone } = await ownerOf(request, context);
  const resultsSince = new Date(Date.now() - FILE_RESULTS_DAYS * 24 * 60 * 60 * 1000);
  return { jobs: await openJobs(storeOf(context), everyone ? null : operator, resultsSince), everyone };
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
  const job = await ownJob(request, context, store, jobId);
  const claimed = await claimItems(store, jobId, keys);
  const results = await sendClaimed(store, jobId, job.kind, claimed, send);
  const sent = new Set(claimed.map((item) => item.key));
  const skipped = keys.filter((key) => !sent.has(key));
  if (skipped.length === 0) return results;
  const standing = new Map((await jobItems(store, jobId)).map((item) => [item.key, item]));
  return [...results, ...skipped.map((key) => standingAnswer(key, standing.get(key)))];
}

/**
 * Sends a stored job's claimed items and records their answers before answering them: a chunk's, or those a
 * settlement job claimed as it was written (its first chunks, issue 35).
 */
export async function sendClaimed(
  store: ConsoleStore,
  jobId: string,
  kind: string,
  items: readonly JobItem[],
  send: (claimed: ReadonlyMap<string, Claimed>) => Promise<ChunkResult[]>,
): Promise<ChunkResult[]> {
  if (items.length === 0) return [];
  const claimed = new Map(items.map((item) => [item.key, { kind, item }]));
  // Each item's entry in the trail names the job (issue 19): the trail shows every item sent once, under it.
  const results = await withAuditJob(jobId, () => send(claimed));
  await recordAnswers(
    store,
    jobId,
    results.map((result) => ({ key: result.key, outcome: !result.error ? "done" : result.unknown ? "unknown" : "refused", message: result.error ?? "" })),
  );
  return results;
}

/** An item this chunk did not send: its recorded answer, or in flight elsewhere (unknown). */
function standingAnswer(key: string, item: JobItem | undefined): ChunkResult {
  if (item?.outcome === "done") return { key };
  if (item?.outcome === "refused") return { key, error: item.message ?? "" };
  return { key, error: item?.message || "sent before, no answer recorded", unknown: true };
}
