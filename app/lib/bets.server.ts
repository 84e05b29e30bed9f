/**
 * The settlement desk and bet history on the server: the pending queue with its totals, the
 * choices Settle market… offers (derived from the pending bets alone, so an operator's own API
 * serves it unchanged), chunks of settlements sent upstream a few at a time, resettlement, the
 * `#` search, and a user's bet history, profit and download.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { BET_KIND, PAGE_SIZE, SETTLEMENT, SPORTS, type SportsBet } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { MESSAGES } from "./constants";
import { env } from "./env.server";
import { resettleSchema } from "./forms/settlement";
import { readForm, runForm } from "./forms/run-form.server";
import { loadListPage } from "./list.server";
import { orRouteError } from "./route-errors.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import { callAsOperator, downloadAsOperator } from "./session.server";

/** The pending queue's filters: the platform's own names (`user` is the user's id). */
export const pendingFilterSchema = z.object({
  eventId: z.string().min(1).max(64).optional().catch(undefined),
  marketId: z.string().min(1).max(64).optional().catch(undefined),
  user: z.string().min(1).max(32).optional().catch(undefined),
  sport: z.enum(SPORTS).optional().catch(undefined),
});
export type PendingFilter = z.infer<typeof pendingFilterSchema>;
const pendingQuerySchema = pendingFilterSchema.extend({ page: z.coerce.number().int().min(1).catch(1) });

/** Totals are summed over the whole filtered queue up to this many bets (a market, an event, a user). */
export const TOTALS_LIMIT = 5_000;
/** Settle market… lists events from the oldest pending bets, at most this many (the queue is oldest first). */
export const EVENT_SCAN_LIMIT = 10_000;
/** Settlements sent upstream at once within one chunk. */
export const SETTLE_CONCURRENCY = 12;
/** Bets one chunk may carry (the machine sends fewer). */
const CHUNK_LIMIT = 50;

type Call = ReturnType<typeof operatorCalls>;
const operatorCalls = (request: Request, context: AppLoadContext) => ({
  pending: (filter: PendingFilter, page: number, pageSize: number = PAGE_SIZE.default) =>
    callAsOperator(request, context, "pendingBets", { ...filter, page, pageSize }),
});

/** Every pending bet of a filter, oldest first, stopping once `limit` bets are read. */
async function pendingBetsOf(call: Call, filter: PendingFilter, limit: number) {
  const bets: SportsBet[] = [];
  for (let page = 1; ; page++) {
    const answer = await call.pending(filter, page, PAGE_SIZE.max);
    bets.push(...answer.items);
    if (answer.items.length < PAGE_SIZE.max || bets.length >= answer.total) return { bets, complete: true };
    if (bets.length >= limit) return { bets, complete: false };
  }
}

export type MarketTotal = { eventId: string; event: string; marketId: string; market: string; count: number; stake: number; exposure: number };

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

/** Spec §2.15: a page of the queue; the filtered set's totals when it is small enough to sum. */
export async function loadPendingBets(request: Request, context: AppLoadContext) {
  const call = operatorCalls(request, context);
  const page = await loadListPage(request, pendingQuerySchema, ({ page: number, ...filter }) => call.pending(filter, number));
  const { page: _page, ...filter } = page.query;
  const totals =
    page.list.total <= TOTALS_LIMIT ? totalsOf((await orRouteError(pendingBetsOf(call, filter, TOTALS_LIMIT))).bets) : null;
  return { ...page, totals, oddsHistoryUrl: env.ODDS_HISTORY_URL };
}
export type PendingBetsData = Awaited<ReturnType<typeof loadPendingBets>>;

/**
 * What Settle market… offers next: the events with pending bets, the markets of an event, or the
 * pending bets of a market (whose runners are the results offered).
 */
export async function settleChoices(request: Request, context: AppLoadContext) {
  const call = operatorCalls(request, context);
  const filter = pendingFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  if (filter.eventId && filter.marketId) {
    const { bets } = await pendingBetsOf(call, filter, Number.POSITIVE_INFINITY);
    return { step: "result" as const, bets };
  }
  if (filter.eventId) {
    const { bets } = await pendingBetsOf(call, filter, Number.POSITIVE_INFINITY);
    return { step: "market" as const, choices: totalsOf(bets).markets, bets };
  }
  const { bets, complete } = await pendingBetsOf(call, filter, EVENT_SCAN_LIMIT);
  const events = new Map<string, MarketTotal>();
  for (const market of totalsOf(bets).markets) {
    const event = events.get(market.eventId) ?? { ...market, marketId: "", market: "", count: 0, stake: 0, exposure: 0 };
    event.count += market.count;
    event.stake = round2(event.stake + market.stake);
    event.exposure = round2(event.exposure + market.exposure);
    events.set(market.eventId, event);
  }
  return { step: "event" as const, choices: [...events.values()], complete };
}
export type SettleChoices = Awaited<ReturnType<typeof settleChoices>>;

const settlementSchema = z.object({
  bet: z.object({ _id: z.string().min(1).max(32) }).passthrough(),
  status: z.union([z.literal(SETTLEMENT.success), z.literal(SETTLEMENT.fail), z.literal(SETTLEMENT.abandoned)]),
});
const chunkSchema = z.object({ settlements: z.array(settlementSchema).min(1).max(CHUNK_LIMIT) });
export type ChunkResult = { key: string; error?: string };

/** Runs `work` over `items` with at most `limit` in flight; answers in the items' order. */
export async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * One chunk of settlements: each bet sent once to `/settel-bet`, a few at a time; each answer
 * reported per bet. A refusal (409 `Bet already settled`) is that bet's failure, never retried.
 */
export async function settleChunk(request: Request, context: AppLoadContext) {
  const parsed = chunkSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false, message: parsed.error.issues[0]!.message, results: [] }, { status: 400 });
  let forbidden = 0;
  const results = await inBatches(parsed.data.settlements, SETTLE_CONCURRENCY, async ({ bet, status }): Promise<ChunkResult> => {
    try {
      await callAsOperator(request, context, "settleBet", { bet: bet as SportsBet, status });
      return { key: bet._id };
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.httpStatus === 403) forbidden++;
        return { key: bet._id, error: error.message };
      }
      throw error;
    }
  });
  // Nothing was allowed: the request itself is refused (403), not a chunk of failed items.
  if (forbidden === results.length) return Response.json({ ok: false, message: results[0]!.error, results }, { status: 403 });
  return Response.json({ ok: true, results });
}

/** Resettle bet… (super admin): the platform reverses the old outcome and applies the new one. */
export async function resettleBet(request: Request, context: AppLoadContext) {
  return runForm(Object.fromEntries(await readForm(request)), resettleSchema, async ({ bet, status }) => {
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
      const { bets } = await pendingBetsOf(operatorCalls(request, context), {}, BET_SEARCH_SCAN);
      return bets
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

/** Spec §2.9: one user's bets of a kind over the dates, with the profit and balance cards. */
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
