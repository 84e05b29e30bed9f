/**
 * The settlement desk and bet history on the server: the pending queue with its totals, the
 * choices Settle market… offers (derived from the pending bets alone, so an operator's own API
 * serves it unchanged), chunks of settlements sent upstream a few at a time, resettlement, the
 * `#` search, and a user's bet history, profit and download.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { BET_KIND, PAGE_SIZE, SPORTS, type Page, type PendingMarketTotal, type PendingTotals, type SettlementCode, type SportsBet } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { withAuditBatch, type ItemOutcome } from "./audit.server";
import { capabilities } from "./capabilities.server";
import { MESSAGES, SCOPE_READ_REUSE_MS, SETTLE_BULK_IN_FLIGHT, SETTLE_BULK_SIZE, SETTLE_CONCURRENCY } from "./constants";
import { env } from "./env.server";
import { inBatches, slicesOf } from "../machines/in-batches";
import { inLane } from "./job-lanes.server";
import { runJobChunk, sendClaimed } from "./jobs.server";
import type { JobItem } from "./store/jobs.server";
import { jobThresholdsOn } from "./store/four-eyes.server";
import { inScope, resettleSchema, settlementChunkSchema, type SettlementScope } from "./forms/settlement";
import { readForm, runForm } from "./forms/run-form.server";
import { partialText, SCAN_LIMIT, type Coverage } from "./list";
import { loadListPage, PAGES_IN_FLIGHT, readEveryPage, type Scan } from "./list.server";
import { orRouteError } from "./route-errors.server";
import { storeOf } from "./guards.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import type { StoredSettlement } from "../machines/settlement.machine";
import { callAsOperator, callItemsAsOperator, downloadAsOperator, requireSession } from "./session.server";

/** The pending queue's filters: the platform's own names (`user` is the user's id). */
export const pendingFilterSchema = z.object({
  eventId: z.string().min(1).max(64).optional().catch(undefined),
  marketId: z.string().min(1).max(64).optional().catch(undefined),
  user: z.string().min(1).max(32).optional().catch(undefined),
  sport: z.enum(SPORTS).optional().catch(undefined),
});
export type PendingFilter = z.infer<typeof pendingFilterSchema>;
const pendingQuerySchema = pendingFilterSchema.extend({ page: z.coerce.number().int().min(1).catch(1) });

/**
 * One page of the pending queue as the API answers it (which may ignore every filter but `page`);
 * with `totals`, asking for the filtered queue's totals too (an extension the API may ignore).
 */
export type PendingCall = (filter: PendingFilter, page: number, pageSize?: number, totals?: boolean) => Promise<Page<SportsBet> & { totals?: PendingTotals }>;
export const pendingCall =
  (request: Request, context: AppLoadContext): PendingCall =>
  (filter, page, pageSize = PAGE_SIZE.default, totals = false) =>
    callAsOperator(request, context, "pendingBets", { ...filter, page, pageSize, ...(totals && { totals: 1 as const }) });

/** Whether a bet belongs to the queue's filter by its own fields. */
export const matchesFilter = (filter: PendingFilter) => {
  const scoped = inScope(filter);
  return (bet: SportsBet) => scoped(bet) && (!filter.user || bet.userId === filter.user) && (!filter.sport || bet.sportName === filter.sport);
};

/**
 * The pending bets of a filter, oldest first, as far as the bound reads, kept by their own fields;
 * a filter a bet did not match, or a short page size, is what this API lacks (capabilities). Its
 * pages are read a few at once: an API with only the spec's call answers 50 a page, and a
 * settlement job is checked against a fresh read of the whole queue (issue 35).
 */
export async function pendingScan(call: PendingCall, filter: PendingFilter, limit = SCAN_LIMIT) {
  const ignored = new Set<keyof PendingFilter>();
  const fields = (Object.keys(filter) as Array<keyof PendingFilter>).filter((field) => filter[field]);
  const keep = (bet: SportsBet) => {
    const missed = fields.filter((field) => !matchesFilter({ [field]: filter[field] })(bet));
    for (const field of missed) ignored.add(field);
    return missed.length === 0;
  };
  const scan = await readEveryPage((page, pageSize) => call(filter, page, pageSize), { inFlight: PAGES_IN_FLIGHT, limit, keep });
  capabilities.learnFromReading("pendingBets", { ignored, pageSize: scan.pageSize, total: scan.total });
  return scan;
}

const coverageOf = ({ read, total, complete }: Coverage): Coverage => ({ read, total, complete });

export type MarketTotal = PendingMarketTotal;

/** Count, stake and exposure per market, largest exposure first, and over all of them. */
export function totalsOf(bets: readonly SportsBet[]) {
  const byMarket = new Map<string, MarketTotal>();
  const all = { count: 0, stake: 0, exposure: 0 };
  for (const bet of bets) {
    const key = `${bet.eventId}\u0000${bet.marketId ?? ""}`;
    const total = byMarket.get(key) ?? { eventId: bet.eventId, event: bet.event, marketId: bet.marketId ?? "", market: bet.market, count: 0, stake: 0, exposure: 0 };
    for (const sum of [total, all]) {
      sum.count++;
      sum.stake = round2(sum.stake + bet.amount);
      sum.exposure = round2(sum.exposure + bet.exposure);
    }
    byMarket.set(key, total);
  }
  return { all, markets: [...byMarket.values()].sort((a, b) => b.exposure - a.exposure) };
}
const round2 = (value: number) => Math.round(value * 100) / 100;

/** The queue's totals as the screen shows them: over `coverage` of the filtered set (all of it when complete). */
export type PendingTotalsView = ReturnType<typeof totalsOf> & { coverage: Coverage };

/**
 * The unfiltered queue's totals summed over the bets the bound reads, for an API without the
 * totals extension: the screen shows the page at once and these when counted. One count per
 * session runs at a time; a reload while it runs shares it.
 */
const counting = new Map<string, Promise<PendingTotalsView>>();
function countInBackground(call: PendingCall, session: string): Promise<PendingTotalsView> {
  const running = counting.get(session);
  if (running) return running;
  const count = pendingScan(call, {})
    .then((scan) => ({ ...totalsOf(scan.items), coverage: coverageOf(scan) }))
    .finally(() => counting.delete(session));
  counting.set(session, count);
  return count;
}

/**
 * docs/product.md §2.15: a page of the queue and the filtered set's totals, in one upstream call
 * when the API answers the totals extension (and the page shows it applied the filter). Without
 * it the totals are summed over every bet the bound reads and say so when that is not all: for
 * the whole queue in the background (a promise the screen shows when ready), for a filter at once,
 * since the same reading cuts the page when the API ignored a filter (a bet of another event came
 * back): the page is then cut from the bets read, kept by their own fields.
 */
export async function pendingView(
  call: PendingCall,
  { page, ...filter }: z.infer<typeof pendingQuerySchema>,
  { session, learnt = capabilities }: { session: string; learnt?: Pick<typeof capabilities, "lack" | "learnIgnored"> },
) {
  const ask = learnt.lack("pendingBets", "pendingBets?totals") === null;
  const { totals: kept, ...list } = await call(filter, page, undefined, ask);
  if (kept && list.items.every(matchesFilter(filter))) {
    const { markets, ...all } = kept;
    const totals: PendingTotalsView = { all, markets, coverage: { read: kept.count, total: kept.count, complete: true } };
    return { list, totals, coverage: null };
  }
  if (ask && !kept) learnt.learnIgnored("pendingBets", "totals", "answered without totals");
  if (!Object.values(filter).some(Boolean)) return { list, totals: countInBackground(call, session), coverage: null };
  const scan = await pendingScan(call, filter);
  const totals: PendingTotalsView = { ...totalsOf(scan.items), coverage: coverageOf(scan) };
  if (scan.dropped === 0 && list.items.every(matchesFilter(filter))) return { list, totals, coverage: null };
  const size = PAGE_SIZE.default;
  const local = { items: scan.items.slice((page - 1) * size, page * size), total: scan.items.length, page, pageSize: size };
  return { list: local, totals, coverage: scan.complete ? null : coverageOf(scan) };
}

export async function loadPendingBets(request: Request, context: AppLoadContext) {
  const call = pendingCall(request, context);
  const session = (await requireSession(request, context)).id;
  const { query, list: view } = await loadListPage(request, pendingQuerySchema, (query) => pendingView(call, query, { session }));
  return { query, ...view, oddsHistoryUrl: env.ODDS_HISTORY_URL };
}
export type PendingBetsData = Awaited<ReturnType<typeof loadPendingBets>>;

/**
 * A settlement set is every pending bet of its market or event, or nothing: a part would settle
 * some bets and leave the rest looking settled. Bets of one market must agree on its type (the
 * result step asks a runner or a run count by it).
 */
function settlementSet(scan: Scan<SportsBet>, what: "market" | "event") {
  const coverage = coverageOf(scan);
  const refuse = (why: string) => ({ bets: [] as SportsBet[], coverage, refusal: `Cannot settle this ${what}: ${why}. Nothing was settled.` });
  if (!scan.complete) return refuse(`only the ${partialText(scan)} pending bets could be read, so its bets are not known completely`);
  if (what === "market" && new Set(scan.items.map((bet) => bet.type)).size > 1) return refuse("its bets disagree on the market's type");
  return { bets: scan.items, coverage, refusal: null };
}

const choicesQuerySchema = pendingFilterSchema.pick({ eventId: true, marketId: true });

/** A read of one settlement scope's pending bets, as the API answered it, and when. */
type ScopeRead = { at: number; scope: string; scan: Scan<SportsBet> };
/** Each session's last read of a settlement scope for Settle market…'s choices (takeScopeRead). */
const scopeReads = new Map<string, ScopeRead>();
const scopeKey = (scope: SettlementScope) => JSON.stringify([scope.eventId ?? null, scope.marketId ?? null]);

/** Kept SCOPE_READ_REUSE_MS, then dropped: a read of up to SCAN_LIMIT bets is not held for a session that never settles. */
function rememberScopeRead(session: string, scope: SettlementScope, scan: Scan<SportsBet>) {
  const read = { at: Date.now(), scope: scopeKey(scope), scan };
  scopeReads.set(session, read);
  setTimeout(() => {
    if (scopeReads.get(session) === read) scopeReads.delete(session);
  }, SCOPE_READ_REUSE_MS).unref();
}

/**
 * The session's own read of this scope for the confirmation it answered, if younger than
 * SCOPE_READ_REUSE_MS; taken, so it checks one job only (issue 35). On an API with only the
 * spec's calls the queue is read whole, 50 a page: the job confirmed a moment ago is checked
 * against what the API answered then rather than read again. Only the session that read it may
 * take it (an operator sees their own tree), and never a resume: what was in flight is read afresh.
 */
export function takeScopeRead(session: string, scope: SettlementScope): Scan<SportsBet> | null {
  const read = scopeReads.get(session);
  if (!read || read.scope !== scopeKey(scope)) return null;
  scopeReads.delete(session);
  return Date.now() - read.at <= SCOPE_READ_REUSE_MS ? read.scan : null;
}

/**
 * What Settle market… offers next: the events with pending bets, the markets of an event with
 * the event's whole set (Void bets of event…), or a market's whole set (whose runners are the
 * results offered). Every set is kept by the bets' own `eventId` and `marketId`. `remember` keeps
 * a set's read for the job that settles it.
 */
export async function settleChoicesOf(
  call: PendingCall,
  { eventId, marketId }: z.infer<typeof choicesQuerySchema>,
  remember: (scope: SettlementScope, scan: Scan<SportsBet>) => void = () => {},
) {
  if (eventId && marketId) {
    const scan = await pendingScan(call, { eventId, marketId });
    remember({ eventId, marketId }, scan);
    return { step: "result" as const, ...settlementSet(scan, "market") };
  }
  if (eventId) {
    const scan = await pendingScan(call, { eventId });
    remember({ eventId }, scan);
    return { step: "market" as const, choices: totalsOf(scan.items).markets, ...settlementSet(scan, "event") };
  }
  const scan = await pendingScan(call, {});
  const events = new Map<string, MarketTotal>();
  for (const market of totalsOf(scan.items).markets) {
    const event = events.get(market.eventId) ?? { ...market, marketId: "", market: "", count: 0, stake: 0, exposure: 0 };
    event.count += market.count;
    event.stake = round2(event.stake + market.stake);
    event.exposure = round2(event.exposure + market.exposure);
    events.set(market.eventId, event);
  }
  return { step: "event" as const, choices: [...events.values()], coverage: coverageOf(scan) };
}
export type SettleChoices = Awaited<ReturnType<typeof settleChoicesOf>>;

export async function settleChoices(request: Request, context: AppLoadContext) {
  const query = choicesQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const session = (await requireSession(request, context)).id;
  return settleChoicesOf(pendingCall(request, context), query, (scope, scan) => rememberScopeRead(session, scope, scan));
}

/** A bet's answer; `unknown`: none came back (or the API failed on its side), so it may be settled. */
export type ChunkResult = { key: string; error?: string; unknown?: boolean };

/**
 * One chunk of settlements: refused whole when a bet is not of the job's scope (the desk checked
 * it too); else sent upstream once each (sendSettlements), each answer reported per bet. A
 * refusal (409 `Bet already settled`) is that bet's failure; a lost answer is that bet's unknown
 * outcome. Neither is retried.
 */
export async function settleChunk(request: Request, context: AppLoadContext) {
  const parsed = settlementChunkSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false, message: parsed.error.issues[0]!.message, results: [] }, { status: 400 });
  const { results, forbidden } = await sendSettlements(request, context, parsed.data.jobId, parsed.data.settlements);
  // Nothing was allowed: the request itself is refused (403), not a chunk of failed items.
  if (forbidden > 0 && forbidden === results.length) return Response.json({ ok: false, message: results[0]!.error, results }, { status: 403 });
  return Response.json({ ok: true, results });
}

type Outbound = { bet: { _id: string }; status: SettlementCode };

/**
 * Sends a chunk's settlements as the operator: of a stored job, only the bets this request claims
 * (none is sent twice), each with the outcome it was confirmed with, their answers recorded.
 * `forbidden` counts the 403s.
 */
export async function sendSettlements(
  request: Request,
  context: AppLoadContext,
  jobId: string | undefined,
  settlements: readonly Outbound[],
): Promise<{ results: ChunkResult[]; forbidden: number }> {
  // With a job threshold on, only a stored job (counted whole when confirmed) may settle: chunks cannot pass one by one.
  if (!jobId && context.store && (await jobThresholdsOn(context.store))) {
    return { results: settlements.map(({ bet }) => ({ key: bet._id, error: MESSAGES.unstoredSettlement })), forbidden: 0 };
  }
  let forbidden = 0;
  const results = await runJobChunk(request, context, jobId, settlements.map(({ bet }) => bet._id), async (claimed) => {
    const changed: ChunkResult[] = [];
    const sendable: Outbound[] = [];
    for (const settlement of settlements) {
      if (!claimed.has(settlement.bet._id)) continue;
      const stored = claimed.get(settlement.bet._id);
      if (!stored) {
        sendable.push(settlement);
        continue;
      }
      // A stored job's bet goes as stored (checked against the API when confirmed), with the outcome it was confirmed with, or not at all.
      const payload = stored.item.payload as Partial<StoredSettlement<unknown>> | null;
      if (payload?.status !== settlement.status || payload.bet?._id !== settlement.bet._id) changed.push({ key: settlement.bet._id, error: MESSAGES.jobItemChanged });
      else sendable.push({ bet: payload.bet, status: settlement.status });
    }
    const answered = await settleAudited(request, context, jobId, sendable);
    forbidden += answered.filter((answer) => answer.status === 403).length;
    return [...changed, ...answered.map(chunkResultOf)];
  });
  return { results, forbidden };
}

/**
 * A settlement job's first chunk, claimed as the job was written (`startJob`, issue 35): each bet sent as the job
 * stored it, its answer recorded before it is answered.
 */
export const settleStarted = (request: Request, context: AppLoadContext, jobId: string, items: readonly JobItem[]): Promise<ChunkResult[]> =>
  sendClaimed(storeOf(context), jobId, "settle", items, async () => {
    const sendable = items.map((item) => {
      const { bet, status } = item.payload as StoredSettlement<unknown>;
      return { bet, status };
    });
    return (await settleAudited(request, context, jobId, sendable)).map(chunkResultOf);
  });

/** One chunk's bets settled upstream, their trail entries appended as their answers come (withAuditBatch). */
const settleAudited = (request: Request, context: AppLoadContext, jobId: string | undefined, sendable: readonly Outbound[]) =>
  withAuditBatch(context.store, () => settleUpstream(request, context, jobId, sendable));

const chunkResultOf = ({ key, error, unknown }: Answered): ChunkResult => ({ key, ...(error !== undefined && { error }), ...(unknown && { unknown }) });

/** A bet's answer upstream, with the HTTP status it came with (403: the operator may not settle). */
type Answered = ChunkResult & { status?: number | null };

/**
 * Settles bets upstream, each once: together in `/settle-bets` calls (extension) of
 * SETTLE_BULK_SIZE, SETTLE_BULK_IN_FLIGHT at once, or, on an API without the call (learnt from its
 * first 404) or when a call is refused whole, each on its own `/settel-bet`, SETTLE_CONCURRENCY at
 * once. A stored job's chunks in flight together share those lanes (job-lanes.server.ts).
 */
async function settleUpstream(request: Request, context: AppLoadContext, jobId: string | undefined, settlements: readonly Outbound[]): Promise<Answered[]> {
  if (settlements.length === 0) return [];
  // This chunk's calls go before a later chunk's of the same job.
  const started = performance.now();
  const lanes =
    (kind: string, width: number) =>
    <T>(work: () => Promise<T>): Promise<T> =>
      jobId ? inLane(`${jobId} ${kind}`, width, started, work) : work();
  const each = (bets: readonly Outbound[]) => settleEachUpstream(request, context, bets, lanes("each", SETTLE_CONCURRENCY));
  if (!capabilities.lack("settleBets")) {
    const slices = slicesOf(settlements, SETTLE_BULK_SIZE);
    const together = lanes("together", SETTLE_BULK_IN_FLIGHT);
    const answered = await inBatches(slices, SETTLE_BULK_IN_FLIGHT, (slice) => settleTogetherUpstream(request, context, slice, together));
    if (answered.every((answers) => answers !== undefined)) return answered.flat();
    // Refused together (the API lacks the call, say): those bets go one by one.
    const lacking = slices.filter((_, i) => answered[i] === undefined).flat();
    return [...answered.flatMap((answers) => answers ?? []), ...(await each(lacking))];
  }
  return each(settlements);
}

const settledBetSchema = z.object({ _id: z.string(), code: z.number().int(), msg: z.string() });

/**
 * Each bet's outcome from a `/settle-bets` answer, checked, not trusted: a result that is not the
 * bet's own, in its place, says nothing of it (it may be settled); a 4xx is a refusal, a 2xx done,
 * anything else unknown, as the bet's own `/settel-bet` would be read.
 */
export function settledOutcomes(settlements: readonly Outbound[], answer: unknown): ItemOutcome[] {
  const results: unknown[] = Array.isArray((answer as { results?: unknown } | null)?.results) ? (answer as { results: unknown[] }).results : [];
  return settlements.map(({ bet }, i): ItemOutcome => {
    const result = settledBetSchema.safeParse(results[i]);
    if (!result.success || result.data._id !== bet._id) return { outcome: "unknown", status: null, message: MESSAGES.settlementUnanswered };
    const { code, msg } = result.data;
    return { outcome: code >= 200 && code < 300 ? "ok" : code >= 400 && code < 500 ? "refused" : "unknown", status: code, message: msg };
  });
}

/**
 * A `/settle-bets` call refused whole in a way its bets alone would not be: a 404 (the API lacks the
 * call: learnt, capabilities.server.ts) or another 4xx but 401, 403 and 429 (an API answering an
 * unknown route 400 or 405, say). Nothing was done, so each bet goes on its own `/settel-bet`.
 */
const refusedTogether = (error: ApiError) =>
  error.httpStatus !== null && error.httpStatus >= 400 && error.httpStatus < 500 && ![401, 403, 429].includes(error.httpStatus);

/**
 * One `/settle-bets` call, its exchange in `lane` (released when the API answers, so a chunk waiting for the job's
 * lanes goes while this one's entries are recorded); undefined when it was refused whole (refusedTogether): nothing
 * was done.
 */
async function settleTogetherUpstream(
  request: Request,
  context: AppLoadContext,
  settlements: readonly Outbound[],
  lane: <T>(exchange: () => Promise<T>) => Promise<T>,
): Promise<Answered[] | undefined> {
  const bets = settlements.map(({ bet, status }) => ({ bet: bet as SportsBet, status }));
  try {
    const outcomes = await callItemsAsOperator(request, context, "settleBets", bets, { settlements: bets }, {
      outcomesOf: (answer) => settledOutcomes(settlements, answer),
      resent: refusedTogether,
      lane,
    });
    return settlements.map(({ bet }, i) => answeredOf(bet._id, outcomes[i]!));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (refusedTogether(error)) return undefined;
    return settlements.map(({ bet }) => failedOf(bet._id, error));
  }
}

/** A bet whose call failed: refused on a 4xx, else its outcome unknown. */
const failedOf = (key: string, error: ApiError): Answered => ({ key, error: error.message, status: error.httpStatus, ...(error.outcomeUnknown && { unknown: true }) });

const answeredOf = (key: string, { outcome, status, message }: ItemOutcome): Answered =>
  outcome === "ok" ? { key } : { key, error: message, status, ...(outcome === "unknown" && { unknown: true }) };

/** Each bet on its own `/settel-bet`, SETTLE_CONCURRENCY at once, in `lane`. */
function settleEachUpstream(
  request: Request,
  context: AppLoadContext,
  settlements: readonly Outbound[],
  lane: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<Answered[]> {
  return inBatches(settlements, SETTLE_CONCURRENCY, async ({ bet, status }): Promise<Answered> => {
    try {
      await lane(() => callAsOperator(request, context, "settleBet", { bet: bet as SportsBet, status }));
      return { key: bet._id };
    } catch (error) {
      if (error instanceof ApiError) return failedOf(bet._id, error);
      throw error;
    }
  });
}

/** Resettle bet… (super admin): the platform reverses the old outcome and applies the new one. */
export async function resettleBet(request: Request, context: AppLoadContext) {
  return runForm(Object.fromEntries(await readForm(request)), resettleSchema, async ({ bet, status }) => {
    // An API without the extension: "The operator's API lacks this extension" (callAsOperator).
    await callAsOperator(request, context, "resettleBet", { bet: { _id: bet } as SportsBet, status });
    return MESSAGES.betResettled;
  });
}

/** What `#` finds among pending bets: by bet id, username, event name or id. */
export type BetHit = { id: string; username: string; userId: string; event: string; eventId: string; marketId: string; market: string; runner: string; amount: number };

/** The search reads the oldest pending bets, at most this many. */
export const BET_SEARCH_SCAN = 2_000;

export function searchBets(request: Request, context: AppLoadContext, term: string) {
  const needle = term.toLowerCase();
  return searchSources<BetHit>([
    async () => {
      const { items } = await pendingScan(pendingCall(request, context), {}, BET_SEARCH_SCAN);
      return items
        .filter((bet) => [bet._id, bet.username, bet.event, bet.eventId].some((text) => text.toLowerCase().includes(needle)))
        .slice(0, SEARCH_LIMIT)
        .map((bet) => ({
          id: bet._id,
          username: bet.username,
          userId: bet.userId,
          event: bet.event,
          eventId: bet.eventId,
          marketId: bet.marketId ?? "",
          market: bet.market,
          runner: bet.runner,
          amount: bet.amount,
        }));
    },
  ]);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Today in the console's zone, `YYYY-MM-DD`: the bet history's default dates. */
export const todayIn = (timeZone: string, now = new Date()) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);

export const historySchema = z
  .object({
    user: z.string().min(1).max(32),
    username: z.string().max(64).optional(),
    type: z.coerce.number().pipe(z.union([z.literal(BET_KIND.sports), z.literal(BET_KIND.casino), z.literal(BET_KIND.games)])).catch(BET_KIND.sports),
    from: z.string().regex(DAY).optional().catch(undefined),
    to: z.string().regex(DAY).optional().catch(undefined),
    page: z.coerce.number().int().min(1).catch(1),
  })
  .transform((query) => {
    const today = todayIn(env.TIME_ZONE);
    const from = query.from ?? today;
    const to = query.to && query.to >= from ? query.to : from;
    return { ...query, from, to };
  });

/** docs/product.md §2.9: one user's bets of a kind over the dates, with the profit and balance cards. */
export async function loadUserBets(request: Request, context: AppLoadContext) {
  const page = await loadListPage(request, historySchema, (query) => callAsOperator(request, context, "userBets", query));
  const profit = await orRouteError(callAsOperator(request, context, "userProfit", { id: page.query.user }));
  return { ...page, profit, oddsHistoryUrl: env.ODDS_HISTORY_URL };
}
export type UserBetsData = Awaited<ReturnType<typeof loadUserBets>>;

/** Download Bets: the platform's CSV for the history's query, streamed through. */
export async function downloadBets(request: Request, context: AppLoadContext) {
  const query = historySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw new Response("Not Found", { status: 404 });
  const { page: _page, ...rest } = query.data;
  return passThroughFile(await orRouteError(downloadAsOperator(request, context, "downloadBets", rest)));
}

/** A file the platform answered, on to the browser with its type and name. */
export function passThroughFile(upstream: Response): Response {
  const headers = new Headers({ "Content-Type": upstream.headers.get("Content-Type") ?? "text/csv; charset=utf-8" });
  const disposition = upstream.headers.get("Content-Disposition");
  if (disposition) headers.set("Content-Disposition", disposition);
  return new Response(upstream.body, { headers });
}
