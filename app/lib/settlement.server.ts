/**
 * The settlement workspace on the server (issue 18): the markets awaiting settlement, oldest
 * closing first, each with the feed's result and what the house gains if it is settled as
 * reported (derived as Settle market… derives it, from the market's whole checked set). The list
 * comes from `/market-results`; an API without it (a bare 404, learnt by capabilities) gets the
 * markets with pending bets from the pending queue, with no result: the operator gives it.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { PAGE_SIZE, SPORTS, type ClosedMarket, type MarketType, type SportName, type SportsBet } from "../../protocol/wire";
import { outcomeOf, previewOf, reportedResult } from "../machines/settlement.machine";
import { pendingCall, pendingScan, settleChoicesOf, totalsOf, type PendingCall } from "./bets.server";
import { inBatches } from "../machines/in-batches";
import { capabilities } from "./capabilities.server";
import type { Coverage } from "./list";
import { loadListPage, readAllPages } from "./list.server";
import { callAsOperator } from "./session.server";

export type QueueRow = Omit<ClosedMarket, "sport" | "type" | "result" | "closedAt"> & {
  sport: SportName;
  type: MarketType;
  /** The feed's result; null when the API has no `/market-results`. */
  result: string | null;
  closedAt: string | null;
  /** What the house gains settling the pending bets as reported; null without a result or a whole set. */
  houseResult: number | null;
};

const querySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  sport: z.enum(SPORTS).optional().catch(undefined),
});
type Query = z.infer<typeof querySchema>;

/** Markets of a page whose pending bets are read at once for their house result. */
const SET_READS = 4;

/** Every closed market with pending bets, or null when the API lacks `/market-results`. */
export async function closedMarkets(request: Request, context: AppLoadContext, sport: SportName | undefined) {
  try {
    return await readAllPages(async (page, pageSize) => {
      const answer = await callAsOperator(request, context, "marketResults", { page, pageSize, ...(sport && { sport }) });
      return { ...answer, items: answer.items.map((market) => ({ ...market, _id: market.marketId, houseResult: null })) };
    });
  } catch (error) {
    if (capabilities.lack("marketResults")) return null;
    throw error;
  }
}

/** The markets of the pending queue's bets, in the order of their oldest bet, without results. */
export function marketsOfQueue(bets: readonly SportsBet[]): QueueRow[] {
  const withMarket = bets.filter((bet) => bet.marketId);
  const first = new Map<string, SportsBet>();
  for (const bet of withMarket) if (!first.has(bet.marketId!)) first.set(bet.marketId!, bet);
  const totals = new Map(totalsOf(withMarket).markets.map((total) => [total.marketId, total]));
  return [...first.values()].map((bet) => {
    const { count, ...total } = totals.get(bet.marketId!)!;
    return { ...total, pending: count, sport: bet.sportName, type: bet.type, result: null, closedAt: null, houseResult: null };
  });
}

/** The house result of settling the market's whole checked set as the feed reported, or null. */
async function houseResultOf(call: PendingCall, row: QueueRow): Promise<number | null> {
  const result = row.result === null ? null : reportedResult(row.type, row.result);
  if (!result) return null;
  const set = await settleChoicesOf(call, { eventId: row.eventId, marketId: row.marketId });
  if (set.step !== "result" || set.refusal) return null;
  return previewOf(set.bets.map((bet) => ({ bet, status: outcomeOf(bet, result) }))).houseResult;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export async function settlementQueue(request: Request, context: AppLoadContext, { page, sport }: Query) {
  const call = pendingCall(request, context);
  const closed = await closedMarkets(request, context, sport);
  const source = closed ? ("feed" as const) : ("queue" as const);
  const scan = closed ?? (await pendingScan(call, sport ? { sport } : {}));
  const rows: QueueRow[] = closed ? closed.items : marketsOfQueue(scan.items as SportsBet[]);
  const size = PAGE_SIZE.default;
  const items = await inBatches(rows.slice((page - 1) * size, page * size), SET_READS, async (row) => ({
    ...row,
    houseResult: await houseResultOf(call, row),
  }));
  const totals = { markets: rows.length, pending: 0, stake: 0, exposure: 0 };
  for (const row of rows) {
    totals.pending += row.pending;
    totals.stake = round2(totals.stake + row.stake);
    totals.exposure = round2(totals.exposure + row.exposure);
  }
  const coverage: Coverage | null = scan.complete ? null : { read: scan.read, total: scan.total, complete: false };
  return { list: { items, total: rows.length, page, pageSize: size }, totals, coverage, source };
}

export async function loadSettlementQueue(request: Request, context: AppLoadContext) {
  const { query, list } = await loadListPage(request, querySchema, (query) => settlementQueue(request, context, query));
  return { query, ...list };
}
export type SettlementData = Awaited<ReturnType<typeof loadSettlementQueue>>;
