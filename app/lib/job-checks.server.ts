/**
 * What a stored job is checked against at the API (issues 19 and 29), where the browser's word is
 * not enough: when it is stored, that its maker may perform every item now (desk, role, their own
 * tree) and that a settlement's bets are the API's own (their stakes counted by four-eyes); when
 * it is resumed, what became of the items in flight when the console stopped: a bet by its
 * current status (the pending queue, then the bet history), a transfer only where the API was
 * seen honouring requestId, a switch by the account's flag.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { BET_KIND, ROLE, type SportsBet } from "../../protocol/wire";
import { pendingCall, pendingScan, settleStarted, takeScopeRead, todayIn } from "./bets.server";
import { LINES_TYPE, type StartedLine } from "./jobs";
import { MESSAGES } from "./constants";
import { currentLog } from "./observability/context.server";
import { capabilities } from "./capabilities.server";
import {
  jobSchema,
  ownJob,
  resolveInFlight,
  settledBetCheck,
  unknownAnswer,
  type Found,
  type InFlightCheck,
  type PendingOf,
  type SettledOf,
} from "./jobs.server";
import { accountItemAction, isAccountJobKind, type AccountItemPayload } from "./account-jobs";
import { ApiError } from "./api.server";
import { env } from "./env.server";
import { inScope, settlementCodeSchema } from "./forms/settlement";
import { holdJobAboveThreshold } from "./four-eyes.server";
import { currentOperator, PERMISSION_DENIED, requireAccess, storeOf } from "./guards.server";
import { readAllPages } from "./list.server";
import type { Operator } from "./operator";
import { deskOfAccount, mayUse, SCREENS } from "./screens";
import { actorOf, callAsOperator, callerOf, requireSession } from "./session.server";
import type { JobKind } from "../machines/bulk.machine";
import type { SettleableBet } from "../machines/settlement.machine";
import { inBatches, slicesOf } from "../machines/in-batches";
import { addJobItems, createJob, createJobClaimingFirst, type JobItem, type JobItemDraft } from "./store/jobs.server";
import { reauthNeeded } from "./mfa/reauth.server";
import { fileJobRefusal } from "./bulk-file.server";

/**
 * The pending queue, read page by page for each scope, as the API answers it; an API known to
 * ignore the queue's event filter answers the whole queue to every scope, so it is read once.
 * With `confirmed`, a job's one scope is checked against the session's read of it for the
 * confirmation, when that is a moment old (takeScopeRead), instead of a second read.
 */
const pendingUpstream =
  (request: Request, context: AppLoadContext, { confirmed = false } = {}): PendingOf =>
  async (scopes) => {
    const pending = new Map<string, SportsBet>();
    const confirmation = confirmed && scopes.length === 1 ? takeScopeRead((await requireSession(request, context)).id, scopes[0]!) : null;
    if (confirmation) {
      for (const bet of confirmation.items) if (inScope(scopes[0]!)(bet)) pending.set(bet._id, bet);
      return { complete: confirmation.complete, pending };
    }
    let complete = true;
    const reads = capabilities.lack("pendingBets", "pendingBets?eventId") ? [{}] : scopes;
    for (const read of reads) {
      const scan = await pendingScan(pendingCall(request, context), read);
      complete &&= scan.complete;
      for (const bet of scan.items) if (scopes.some((scope) => inScope(scope)(bet))) pending.set(bet._id, bet);
    }
    return { complete, pending };
  };

/** A day in the console's zone, `YYYY-MM-DD`, a day before `at`: the history's range starts there whatever the API's own zone. */
const dayBefore = (at: string) => todayIn(env.TIME_ZONE, new Date(new Date(at).getTime() - 24 * 60 * 60 * 1000));

/**
 * The statuses of settled bets, read from each bettor's sports bet history (a spec call) from
 * the day before the bet was placed to today; a bet not found there, or whose bettor's history
 * cannot be read, is left out.
 */
const settledUpstream =
  (request: Request, context: AppLoadContext): SettledOf =>
  async (bets) => {
    const byUser = new Map<string, { from: string; ids: Set<string> }>();
    for (const { id, userId, createdAt } of bets) {
      const from = dayBefore(createdAt);
      const user = byUser.get(userId) ?? { from, ids: new Set<string>() };
      user.from = from < user.from ? from : user.from;
      user.ids.add(id);
      byUser.set(userId, user);
    }
    const statuses = new Map<string, SportsBet["status"]>();
    const to = todayIn(env.TIME_ZONE);
    await inBatches([...byUser], READS_IN_FLIGHT, async ([user, { from, ids }]) => {
      try {
        const scan = await readAllPages(
          (page, pageSize) => callAsOperator(request, context, "userBets", { user, type: BET_KIND.sports, from, to: to < from ? from : to, page, pageSize }),
          { keep: (bet) => ids.has(bet._id) },
        );
        for (const bet of scan.items) statuses.set(bet._id, (bet as SportsBet).status);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    });
    return statuses;
  };

/** Reads of the API made at once while a job is checked: each is another account's. */
const READS_IN_FLIGHT = 8;

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
      return settledBetCheck(pendingUpstream(request, context), settledUpstream(request, context));
    case "deposit":
      return transferCheck("userDeposit");
    case "withdraw":
      return transferCheck("userWithdraw");
    case "switch":
      return switchCheck(request, context);
  }
}

/** POST /resources/jobs/:id/resume: the maker's own job (issue 29), its in-flight check, then every item as it stands. */
export async function resumeJob(request: Request, context: AppLoadContext, id: string) {
  await requireAccess(request, context, SCREENS.jobs);
  const store = storeOf(context);
  const job = await ownJob(request, context, store, id);
  const items = await resolveInFlight(store, id, inFlightCheck(job.kind as JobKind, request, context));
  return Response.json({ ok: true, job: { id, kind: job.kind, title: job.title, items } });
}

type JobDraft = z.infer<typeof jobSchema>;
type StoredItem = Required<JobItemDraft>;
/** Why a job is not stored: answered as it is, with nothing stored. */
class Refusal {
  constructor(
    readonly status: 400 | 403,
    readonly message: string,
  ) {}
}
const itemRefusal = (index: number, item: { label: string }, problem: string) =>
  new Refusal(400, `Item ${index + 1} (${item.label}) ${problem}`);

/** A stored settlement's payload as the server reads it: the scope, the bet as confirmed, the outcome. */
const settlementPayloadSchema = z.object({
  scope: z.object({ eventId: z.string().optional(), marketId: z.string().optional() }),
  bet: z.object({ _id: z.string(), amount: z.number() }).passthrough(),
  status: settlementCodeSchema,
});

/**
 * The bet fields a confirmed settlement shows and four-eyes counts, named as the desk names them: every field of
 * SettleableBet but its id, the fields the desk sends (settlement.machine.ts, confirmedOf), so the two cannot drift.
 */
const BET_FIELDS = {
  amount: "stake",
  username: "user",
  runner: "runner",
  type: "market type",
  isBack: "side",
  x: "line",
  odds: "odds",
  exposure: "exposure",
} as const satisfies Record<Exclude<keyof SettleableBet, "_id">, string>;

/** The first field the confirmed bet states otherwise than the API's, or null. */
function differingField(confirmed: Record<string, unknown>, upstream: SportsBet): string | null {
  for (const [field, name] of Object.entries(BET_FIELDS) as Array<[keyof typeof BET_FIELDS, string]>) {
    if (field in confirmed && confirmed[field] !== upstream[field]) {
      return `differs from the API's bet ${upstream._id}: ${name} ${String(confirmed[field])} here, ${String(upstream[field])} at the API`;
    }
  }
  return null;
}

/**
 * A settlement job's bets as the API has them (issue 29): each still pending there, of its
 * scope, and stated as the API states it. The bet stored is the API's own, as its pending queue
 * answered it (so its stake and every field the job sends are the API's); it keeps who placed it
 * and when, so a resume can read its outcome from the bet history.
 */
async function admitSettlement(request: Request, context: AppLoadContext, items: JobDraft["items"]): Promise<StoredItem[] | Refusal> {
  const payloads = items.map((item) => settlementPayloadSchema.safeParse(item.payload));
  const unread = payloads.findIndex((payload, index) => !payload.success || payload.data.bet._id !== items[index]!.key);
  if (unread >= 0) return itemRefusal(unread, items[unread]!, "is not a settlement of its bet");
  const settlements = payloads.map((payload) => payload.data!);
  const scopes = new Map(settlements.map(({ scope }) => [JSON.stringify(scope), scope]));
  const { complete, pending } = await pendingUpstream(request, context, { confirmed: true })([...scopes.values()]);
  const admitted: StoredItem[] = [];
  for (const [index, item] of items.entries()) {
    const settlement = settlements[index]!;
    const upstream = pending.get(item.key);
    const problem = !upstream
      ? complete
        ? "is not a pending bet at the API"
        : "could not be found in the API's pending queue, read only in part"
      : !inScope(settlement.scope)(upstream)
        ? "is not a bet of the job's market"
        : differingField(settlement.bet, upstream);
    if (problem) return itemRefusal(index, item, problem);
    const placed = { userId: upstream!.userId, createdAt: upstream!.createdAt };
    admitted.push({ ...item, payload: { ...settlement, bet: upstream, placed } });
  }
  return admitted;
}

/**
 * A bulk job's items (issue 29): each its kind's action on its account, on a desk the maker may
 * use now; a partner's accounts each in their own tree, as the API shows by reading the account
 * as them (an API confines a partner's reads to their tree).
 */
async function admitAccountItems(request: Request, context: AppLoadContext, maker: Operator, job: JobDraft): Promise<StoredItem[] | Refusal> {
  const { kind } = job;
  if (!isAccountJobKind(kind)) return new Refusal(400, "Not a bulk job");
  const items = job.items.map((item) => ({ ...item, payload: item.payload ?? null }));
  const actions = items.map((item) => accountItemAction(kind, item));
  const unread = actions.findIndex((action) => action === null);
  if (unread >= 0) return itemRefusal(unread, items[unread]!, `is not a ${kind} of its account`);
  const denied = actions.findIndex((action) => !mayUse(deskOfAccount(action!), maker));
  if (denied >= 0) return new Refusal(403, `${PERMISSION_DENIED}: item ${denied + 1} (${items[denied]!.label}) is on a desk you may not use`);
  if (maker.role === ROLE.partner) {
    const outside = await inBatches(actions, READS_IN_FLIGHT, async (action) => {
      try {
        await callAsOperator(request, context, action!.isPartner ? "partnerPermissions" : "userPermissions", { id: action!.user });
        return null;
      } catch (error) {
        if (error instanceof ApiError && !error.outcomeUnknown) return error.message;
        throw error;
      }
    });
    const at = outside.findIndex((message) => message !== null);
    if (at >= 0) return new Refusal(403, `${PERMISSION_DENIED}: item ${at + 1} (${items[at]!.label}) is not in your tree (${outside[at]})`);
  }
  return items;
}

/** The items as they may be stored for this maker, or why not. */
async function admit(request: Request, context: AppLoadContext, maker: Operator, job: JobDraft): Promise<StoredItem[] | Refusal> {
  if (job.kind !== "settle") return admitAccountItems(request, context, maker, job);
  if (!mayUse(SCREENS["pending-sport-bets"], maker)) return new Refusal(403, `${PERMISSION_DENIED}: settling bets needs the bets desk`);
  return admitSettlement(request, context, job.items);
}

/**
 * POST /resources/jobs: a confirmed job, checked against its maker's rights and the API (issue
 * 29), written before its first chunk is sent; answers its id, or `held` for four-eyes.
 */
export async function startJob(request: Request, context: AppLoadContext) {
  // The body (a settlement's thousand bets) is read and checked while the session and the operator's record are, the
  // latter a round trip to the API: the head of a settlement, before its first call (issue 35). Nothing is answered
  // from it before the session is checked.
  const parsed = request
    .json()
    .catch(() => null)
    .then((body) => jobSchema.safeParse(body));
  const asked = await reauthNeeded(request, context);
  if (asked) return asked;
  const session = await requireSession(request);
  const [checked, maker, operator] = await Promise.all([parsed, actorOf(session, callerOf(request, context, session.token)), currentOperator(request, context)]);
  if (!checked.success) return Response.json({ ok: false, message: checked.error.issues[0]!.message }, { status: 400 });
  const job = checked.data;
  const items = await admit(request, context, operator, job);
  if (items instanceof Refusal) return Response.json({ ok: false, message: items.message }, { status: items.status });
  // A job from a file (issue 34): its lines as previewed, and a partner's deposits within their balance.
  const refused = await fileJobRefusal(request, context, operator, job);
  if (refused) return Response.json({ ok: false, message: refused }, { status: 400 });
  const { file, start, ...draft } = job;
  const admitted = { ...draft, items, fileLines: file?.lines };
  // Four-eyes (issue 19): a job above a job threshold waits for a second operator, unstored and unsent.
  const held = await holdJobAboveThreshold(context.store, maker, admitted);
  if (held) return Response.json({ ok: true, held });
  const stored = { operator: maker.operator, ...admitted };
  if (start && job.kind === "settle") return startedSettlement(request, context, stored, start);
  return Response.json({ ok: true, id: await createJob(storeOf(context), stored) });
}

/**
 * A settlement job stored and started at once (issue 35, ADR 0009): written with its first chunk claimed, which goes
 * upstream at once; its next chunks of the window written claimed and started, then its other items, while the API
 * settles the first. Answered as lines of JSON (StartedLine): the id once every item is stored (null if they could
 * not all be: the browser runs the rest unstored, as when no job can be stored), then each started chunk's results as
 * they are recorded.
 */
async function startedSettlement(request: Request, context: AppLoadContext, job: StoredJobDraft, { chunkSize, chunks }: { chunkSize: number; chunks: number }) {
  const store = storeOf(context);
  const [, ...window] = slicesOf(job.items.slice(0, chunkSize * chunks), chunkSize);
  const { id, claimed } = await createJobClaimingFirst(store, job, chunkSize);
  const startChunk = (chunk: number, items: readonly JobItem[]): Promise<StartedLine> =>
    settleStarted(request, context, id, items).then(
      (results) => ({ chunk, results }),
      (error: unknown) => {
        currentLog().error({ err: error, jobId: id, chunk }, "a started chunk failed");
        return { chunk, message: MESSAGES.fallback };
      },
    );
  const started = [startChunk(0, claimed)];
  const rest = (async () => {
    // The first chunk's calls on their way before the store is busy again (PGlite answers in this process's turn).
    await new Promise((resolve) => setImmediate(resolve));
    let position = claimed.length;
    try {
      for (const items of window) {
        started.push(startChunk(started.length, await addJobItems(store, id, items, position, { claimed: true })));
        position += items.length;
      }
      await addJobItems(store, id, job.items.slice(position), position);
      return id;
    } catch (error) {
      currentLog().error({ err: error, jobId: id }, "a started job's other items could not be stored");
      // Not written, so never sent: the window's chunks not started are refused, the rest runs unstored.
      for (let chunk = started.length; chunk <= window.length; chunk++) {
        const keys = window[chunk - 1]!.map((item) => item.key);
        started.push(Promise.resolve({ chunk, results: keys.map((key) => ({ key, error: MESSAGES.jobNotStored })) }));
      }
      return null;
    }
  })();
  const lines = async function* (): AsyncGenerator<StartedLine> {
    yield { id: await rest };
    yield* inOrderOfAnswer(started);
  };
  return new Response(linesOfJson(lines()), { headers: { "Content-Type": `${LINES_TYPE}; charset=utf-8`, "Cache-Control": "no-store, no-transform" } });
}

type StoredJobDraft = Parameters<typeof createJob>[1];

/** The values of these promises as each settles, first come first. */
async function* inOrderOfAnswer<T>(promises: readonly Promise<T>[]): AsyncGenerator<T> {
  const waiting = new Map(promises.map((promise, index) => [index, promise.then((value) => ({ index, value }))]));
  while (waiting.size > 0) {
    const { index, value } = await Promise.race(waiting.values());
    waiting.delete(index);
    yield value;
  }
}

/** A body of one JSON value a line, each sent as it comes. */
function linesOfJson(values: AsyncIterable<unknown>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      for await (const value of values) controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      controller.close();
    },
  });
}
