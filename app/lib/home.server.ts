/**
 * Home on the server (issue 33): one request reads every source the operator may see at once, each
 * on its own, so a source that fails answers why for its own line and never stops the others.
 */
import type { AppLoadContext } from "@remix-run/node";
import { CALLS, type CallName } from "../../protocol/calls";
import { REQUEST_STATUS, ROLE, type DepositRow, type MarketBets, type Page, type WithdrawRow } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { approvalsWaiting } from "./approvals.server";
import { capabilities } from "./capabilities.server";
import { HOME_RISK_EVENTS, HOME_SPARKLINE_DAYS } from "./constants";
import { env } from "./env.server";
import type { ApiFigures, AwaitingSettlement, HomeSources, JobFigures, Settled, TodayFigures, WaitingRequests } from "./home";
import { storeOf } from "./guards.server";
import { ownerOf } from "./jobs.server";
import { readAllPages } from "./list.server";
import { worstEvents } from "./markets.server";
import { toOperator, type Operator } from "./operator";
import { daysBetween, presetRange, recentRange } from "./report-days";
import { orRouteError } from "./route-errors.server";
import { mayOpen, SCREENS } from "./screens";
import { closedMarkets } from "./settlement.server";
import { openJobs } from "./store/jobs.server";
import { callAsOperator } from "./session.server";

/** What the line says when the API has no `/market-results`: closed markets cannot be known from the spec's calls. */
export const CLOSED_MARKETS_UNKNOWN = `closed markets need ${CALLS.marketResults.path}, which this API lacks`;

async function waitingRequests(request: Request, context: AppLoadContext, name: "deposits" | "withdraws"): Promise<WaitingRequests> {
  const read = (page: number, pageSize: number): Promise<Page<DepositRow | WithdrawRow>> =>
    callAsOperator(request, context, name, { status: REQUEST_STATUS.pending, page, pageSize });
  const scan = await readAllPages(read, { keep: (row) => row.status === REQUEST_STATUS.pending });
  let total = 0;
  let oldest: string | null = null;
  for (const row of scan.items) {
    total += row.amount;
    if (oldest === null || Date.parse(row.createdAt) < Date.parse(oldest)) oldest = row.createdAt;
  }
  return { count: scan.complete ? scan.items.length : scan.total, total: Math.round(total * 100) / 100, oldest };
}

async function awaitingSettlement(request: Request, context: AppLoadContext): Promise<AwaitingSettlement> {
  if (capabilities.lack("marketResults")) return { lacking: CLOSED_MARKETS_UNKNOWN };
  const closed = await closedMarkets(request, context, undefined);
  if (!closed) return { lacking: CLOSED_MARKETS_UNKNOWN };
  const figures = { markets: closed.items.length, bets: 0, stake: 0, oldestClose: null as string | null };
  for (const market of closed.items) {
    figures.bets += market.pending;
    figures.stake += market.stake;
    if (figures.oldestClose === null || Date.parse(market.closedAt) < Date.parse(figures.oldestClose)) figures.oldestClose = market.closedAt;
  }
  return { ...figures, stake: Math.round(figures.stake * 100) / 100 };
}

async function jobFigures(request: Request, context: AppLoadContext): Promise<JobFigures> {
  const { operator, everyone } = await ownerOf(request, context);
  const jobs = await openJobs(storeOf(context), everyone ? null : operator);
  return { unfinished: jobs.filter((job) => job.operator === operator).length, lastActivity: jobs.map((job) => job.lastActivity.toISOString()) };
}

/** Today's profit and loss, and the last days' where the reports give daily figures (an extension). */
async function today(request: Request, context: AppLoadContext): Promise<TodayFigures> {
  const recent = recentRange(HOME_SPARKLINE_DAYS);
  const [day, days] = await Promise.all([
    callAsOperator(request, context, "reportV1", presetRange("today")),
    callAsOperator(request, context, "reportV1", recent),
  ]);
  const byDay = days.daily && new Map(days.daily.map((point) => [point.day, point.profit]));
  return {
    profit: day.profit2.total,
    daily: byDay ? daysBetween(recent.from, recent.to).map((date) => ({ day: date, profit: byDay.get(date) ?? 0 })) : null,
  };
}

/** The extensions (calls, and a call's query parameters) the upstream APIs showed missing, by path. */
function lackingExtensions(): string[] {
  const names = new Set([...Object.keys(capabilities.lacking(env.ADMIN_API_URL)), ...Object.keys(capabilities.lacking(env.SPORTS_API_URL))]);
  return [...names].map((name) => {
    const [call, parameter] = name.split("?") as [CallName, string | undefined];
    return `${CALLS[call].path}${parameter ? `?${parameter}` : ""}`;
  });
}

type Source<T> = { upstream: boolean; read: () => Promise<T> };
type Reads = { [Id in keyof Omit<HomeSources, "api">]?: Source<NonNullable<HomeSources[Id]> extends Settled<infer T> ? T : never> };

/** Every source at once: each answers its value or why it failed; and when the API last answered, and which sources it did not answer. */
async function settleAll(reads: Reads, answeredAt: number): Promise<{ sources: Omit<HomeSources, "api">; answeredAt: number; silent: string[] }> {
  const entries = Object.entries(reads) as Array<[keyof Reads, Source<unknown>]>;
  let last = answeredAt;
  const silent: string[] = [];
  const settled = await Promise.all(
    entries.map(async ([id, { upstream, read }]): Promise<[string, Settled<unknown>]> => {
      try {
        const value = await read();
        if (upstream) last = Math.max(last, Date.now());
        return [id, { ok: true, value }];
      } catch (error) {
        if (error instanceof ApiError && upstream) {
          if (error.httpStatus === null) silent.push(id);
          else last = Math.max(last, Date.now());
        }
        return [id, { ok: false, reason: reasonOf(error) }];
      }
    }),
  );
  return { sources: Object.fromEntries(settled), answeredAt: last, silent };
}

const reasonOf = (error: unknown): string =>
  error instanceof Response ? error.statusText || `the console answered ${error.status}` : error instanceof Error ? error.message : String(error);

/** Which sources this operator may see, and how each is read. */
function readsFor(request: Request, context: AppLoadContext, operator: Operator, worstCaseOf: (book: MarketBets) => number): Reads {
  const may = (id: keyof typeof SCREENS) => mayOpen(SCREENS[id], operator);
  const upstream = <T,>(read: () => Promise<T>): Source<T> => ({ upstream: true, read });
  const store = <T,>(read: () => Promise<T>): Source<T> => ({ upstream: false, read });
  return {
    ...(may("deposits") && { deposits: upstream(() => waitingRequests(request, context, "deposits")) }),
    ...(may("withdraws") && { withdraws: upstream(() => waitingRequests(request, context, "withdraws")) }),
    ...(may("settlement") && { settlement: upstream(() => awaitingSettlement(request, context)) }),
    ...(may("approvals") && { approvals: store(() => approvalsWaiting(context, operator)) }),
    ...(may("jobs") && { jobs: store(() => jobFigures(request, context)) }),
    ...(may("markets") && { risk: upstream(() => worstEvents(request, context, worstCaseOf, HOME_RISK_EVENTS)) }),
    ...(may("report-v1") && { today: upstream(() => today(request, context)) }),
  };
}

/**
 * The operator's record (which also finds a session ended elsewhere), then every source of theirs
 * at once. `worstCaseOf` is the board's figure (app/components/markets), passed in by the route.
 */
export async function loadHome(request: Request, context: AppLoadContext, worstCaseOf: (book: MarketBets) => number) {
  const admin = await orRouteError(callAsOperator(request, context, "currentAdmin", undefined));
  const operator = toOperator(admin);
  const read = await settleAll(readsFor(request, context, operator, worstCaseOf), Date.now());
  // The API's own line is the super admin's: what the house's API lacks is theirs to take up.
  const api: ApiFigures | undefined =
    operator.role === ROLE.superAdmin ? { answeredAt: new Date(read.answeredAt).toISOString(), silent: read.silent, lacking: lackingExtensions() } : undefined;
  const sources: HomeSources = { ...read.sources, ...(api && { api }) };
  return {
    operator,
    balance: admin.balance,
    sources,
    readAt: new Date().toISOString(),
    ageLimits: { amberMinutes: env.HOME_AGE_AMBER_MINUTES, redMinutes: env.HOME_AGE_RED_MINUTES },
  };
}
export type HomeData = Awaited<ReturnType<typeof loadHome>>;
