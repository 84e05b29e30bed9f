/**
 * The settlement desk and bet history under the admin API. Settling and the pending queue
 * are a house function (super admin, or staff with `bets`); resettlement is the super
 * admin's alone; partners see the history, profit and downloads of their own subtree.
 */
import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { PAGE_SIZE, SETTLE_BETS_MAX, SPORTS, type CasinoBet, type GameBet, type SettledBet, type SportsBet } from "../../../protocol/wire.js";
import { csvStream } from "../../csv.js";
import { wireFailureOf } from "../../plugins/error-handler.js";
import { authenticated, requireStaffFlag, requireSuperAdmin } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { DAY_MS, dayRange, DayRangeFields, dayStart, fromNotAfterTo } from "../../validation/days.js";
import { blankless, exactIssue, Id, Paging, Text } from "../../validation/schemas.js";
import { BET_MESSAGE, createBetService } from "./service.js";

const PendingQuery = z
  .object({
    ...Paging.shape,
    eventId: blankless(Text({ min: 1, max: 64 }).optional()),
    marketId: blankless(Text({ min: 1, max: 64 }).optional()),
    user: blankless(Id.optional()),
    sport: blankless(z.enum(SPORTS).transform((sport) => SPORTS.indexOf(sport)).optional()),
    // `totals=1` (extension): the filtered queue's totals beside the page.
    totals: blankless(z.enum(["0", "1"]).optional()),
  })
  .strict();

/** The whole bet travels (docs/product.md §4); only its `_id` is trusted. */
const SettleBody = z
  .object({
    bet: z.object({ _id: Id }).passthrough(),
    status: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  })
  .strict();

/** `/settle-bets` (extension): 1 to SETTLE_BETS_MAX settlements, each bet once. */
const SettleManyBody = z
  .object({ settlements: z.array(SettleBody).min(1).max(SETTLE_BETS_MAX) })
  .strict()
  .superRefine(({ settlements }, context) => {
    const seen = new Set<bigint>();
    for (const { bet } of settlements) {
      if (seen.has(bet._id)) context.addIssue(exactIssue(BET_MESSAGE.sentTwice(String(bet._id))));
      seen.add(bet._id);
    }
  });

const HistoryFields = {
  ...DayRangeFields,
  type: blankless(z.coerce.number().pipe(z.union([z.literal(0), z.literal(1), z.literal(2)])).default(0)),
  user: Id,
  // The console sends the username for its title; the id decides.
  username: Text({ max: 64 }).optional(),
};
/** Bet history days are Asia/Kolkata days, as in the reports. */
const toRange = <T extends { from?: string; to?: string; user: bigint }>(query: T) => {
  const { from, to } = dayRange(query);
  return { ...query, userId: query.user, from: dayStart(from), to: new Date(dayStart(to).getTime() + DAY_MS) };
};
const HistoryQuery = z
  .object({ ...Paging.shape, ...HistoryFields })
  .strict()
  .refine(...fromNotAfterTo)
  .transform(toRange);

const UserParams = z.object({ id: Id }).strict();

const SPORTS_COLUMNS = ["Sport", "Bet ID", "Event", "Market", "Market Type", "Runner Name", "Side", "Stake", "Exp", "Price", "Odds", "Status", "Profit/Loss", "Placed Date"];
const CASINO_COLUMNS = ["Bet ID", "Provider Code", "Game Code", "Round ID", "Price", "Placed Date", "Status", "Profit/Loss"];
const GAME_COLUMNS = ["Bet ID", "Runner", "Game ID", "Round ID", "Price", "Placed Date", "Status", "Profit/Loss"];
const money = (value: number) => value.toFixed(2);
const profitLoss = (bet: { profit: number; loss: number }) => money(bet.profit - bet.loss);

const CSV_ROW = {
  0: (bet: SportsBet) => [
    bet.sportName,
    bet._id,
    bet.event,
    bet.market,
    bet.type,
    bet.runner,
    bet.isBack ? "Back" : "Lay",
    money(bet.amount),
    money(bet.exposure),
    bet.x,
    bet.odds,
    bet.status,
    profitLoss(bet),
    bet.createdAt,
  ],
  1: (bet: CasinoBet) => [bet._id, bet.providerCode, bet.gameCode, bet.roundId, money(bet.amount), bet.createdAt, bet.status, profitLoss(bet)],
  2: (bet: GameBet) => [bet._id, bet.runnerName, bet.gameId, bet.roundId, money(bet.amount), bet.createdAt, bet.status, profitLoss(bet)],
} as const;
const CSV_HEADER = { 0: SPORTS_COLUMNS, 1: CASINO_COLUMNS, 2: GAME_COLUMNS } as const;
const CSV_NAME = { 0: "sports", 1: "casino", 2: "games" } as const;
/** Rows fetched per page while streaming a download. */
const DOWNLOAD_PAGE = PAGE_SIZE.max;

export default async function betRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const bets = createBetService({ db: app.db, book: app.realtime.book, casinoSeedHours: app.config.CASINO_SEED_HOURS });
  const desk = { onRequest: requireStaffFlag("bets") };
  const history = { onRequest: requireStaffFlag("bets", { partners: true }) };

  api.get(CALLS.pendingBets.path, { ...desk, schema: { querystring: PendingQuery } }, async (request, reply) => {
    const { page, pageSize, eventId, marketId, user, sport, totals } = request.query;
    const filter = { eventId, marketId, userId: user, sport };
    const [list, sums] = await Promise.all([bets.pending(filter, { page, pageSize }), totals === "1" ? bets.pendingTotals(filter) : undefined]);
    return reply.ok(sums ? { ...list, totals: sums } : list);
  });

  api.post(CALLS.settleBet.path, { ...desk, schema: { body: SettleBody } }, async (request, reply) => {
    const settled = await bets.settle(authenticated(request).admin, request.body.bet._id, request.body.status);
    return reply.ok(settled, BET_MESSAGE.settled);
  });

  api.post(CALLS.settleBets.path, { ...desk, schema: { body: SettleManyBody } }, async (request, reply) => {
    const { settlements } = request.body;
    const outcomes = await bets.settleMany(
      authenticated(request).admin,
      settlements.map(({ bet, status }) => ({ betId: bet._id, code: status })),
    );
    const results: SettledBet[] = outcomes.map((outcome, i) => {
      const _id = String(settlements[i]!.bet._id);
      if (outcome.status === "fulfilled") return { _id, code: 200, msg: BET_MESSAGE.settled };
      const { code, msg, known } = wireFailureOf(outcome.reason);
      if (!known) request.log.error({ err: outcome.reason, betId: _id }, "settlement failed");
      return { _id, code, msg };
    });
    const settled = results.filter((result) => result.code === 200).length;
    return reply.ok({ results }, BET_MESSAGE.settledMany(settled, results.length));
  });

  api.post(CALLS.resettleBet.path, { onRequest: requireSuperAdmin, schema: { body: SettleBody } }, async (request, reply) => {
    const settled = await bets.resettle(authenticated(request).admin, request.body.bet._id, request.body.status);
    return reply.ok(settled, BET_MESSAGE.resettled);
  });

  api.get(CALLS.userBets.path, { ...history, schema: { querystring: HistoryQuery } }, async (request, reply) => {
    return reply.ok(await bets.userBets(authenticated(request).admin, request.query));
  });

  api.get(CALLS.userProfit.path, { ...history, schema: { params: UserParams } }, async (request, reply) => {
    return reply.ok(await bets.userProfit(authenticated(request).admin, request.params.id));
  });

  // A file, not the envelope: the browser saves it as it comes, page by page.
  api.get(CALLS.downloadBets.path, { ...history, schema: { querystring: HistoryQuery } }, async (request, reply) => {
    const caller = authenticated(request).admin;
    const query = { ...request.query, pageSize: DOWNLOAD_PAGE };
    // The first page answers before any byte is sent, so a refusal is still a clean 403/404.
    const first = await bets.userBets(caller, { ...query, page: 1 });
    const type = query.type;
    const toRow = CSV_ROW[type] as (bet: SportsBet | CasinoBet | GameBet) => unknown[];
    async function* rows() {
      let page = first;
      for (let n = 1; ; n++) {
        for (const bet of page.items) yield toRow(bet);
        if (n * DOWNLOAD_PAGE >= page.total || page.items.length === 0) return;
        page = await bets.userBets(caller, { ...query, page: n + 1 });
      }
    }
    const csv = csvStream(CSV_HEADER[type]);
    void (async () => {
      try {
        for await (const row of rows()) {
          if (!csv.write(row)) await new Promise((resolve) => csv.once("drain", resolve));
        }
        csv.end();
      } catch (error) {
        csv.destroy(error as Error);
      }
    })();
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="bets-${CSV_NAME[type]}-${query.user}.csv"`)
      .send(csv);
  });
}
