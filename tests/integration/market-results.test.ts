/**
 * GET /api/sports/market-results (issue 18): the closed markets that still hold pending bets,
 * with the feed's result, oldest closing first, paged, for the house desk only; a market closed
 * by the feed simulator appears with the winner or run count the simulator reported.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClosedMarket, Page, SportsBet } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { createFeedStore } from "../../platform/modules/sports/repository.js";
import { createFeedSimulator } from "../../platform/sim/feed.js";
import { call, createAdmin, createBettor, createMarket, freshIp, login, testApp, testDb, type RunnerSpec, type TestUser } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let tokens: Record<"admin" | "staffBets" | "staffUsers" | "partner", string>;
let bettor: TestUser & { token: string };

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  const partner = await createAdmin({ role: 3 });
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    staffBets: await signIn(await createAdmin({ role: 2, permissions: { bets: true } })),
    staffUsers: await signIn(await createAdmin({ role: 2, permissions: { users: true } })),
    partner: await signIn(partner),
  };
  bettor = await createBettor(app, partner.id, 10_000_000n);
});
afterAll(() => app.close());

const results = (query: string, token = tokens.admin) => call<Page<ClosedMarket>>(app, "GET", `/api/sports/market-results?${query}`, { token });

async function bet(body: { eventId: string; marketId: string; runner: string; isBack: 0 | 1; price: number; amount: number }): Promise<string> {
  const reply = await call<{ _id: string }>(app, "POST", "/api/user/bet", { token: bettor.token, body });
  if (reply.status !== "SUCCESS") throw new Error(`bet refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data!._id;
}
const settle = (id: string, status: 1 | 2 | 3) => call<SportsBet>(app, "POST", "/settel-bet", { token: tokens.admin, body: { bet: { _id: id }, status } });

const ODDS: RunnerSpec[] = [
  { name: "Alpha", back: { price: 2.5, size: 1000 }, lay: { price: 2.52, size: 1000 } },
  { name: "Beta", back: { price: 1.6, size: 1000 }, lay: { price: 1.62, size: 1000 } },
];
const LINE: RunnerSpec[] = [{ name: "6 Over Runs Alpha", back: { price: 51, size: 100 }, lay: { price: 50, size: 100 } }];

describe("GET /market-results", () => {
  let since: string;
  let odds: Awaited<ReturnType<typeof createMarket>>;
  let fancy: Awaited<ReturnType<typeof createMarket>>;

  beforeAll(async () => {
    since = new Date().toISOString();
    odds = await createMarket(db, "odds", ODDS);
    fancy = await createMarket(db, "fancy", LINE, { sport: 0 });
    const empty = await createMarket(db, "odds", ODDS);
    const open = await createMarket(db, "odds", ODDS);
    const settled = await createMarket(db, "odds", ODDS);

    await bet({ eventId: odds.eventId, marketId: odds.marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    await bet({ eventId: odds.eventId, marketId: odds.marketId, runner: "Beta", isBack: 0, price: 1.62, amount: 50 });
    await bet({ eventId: fancy.eventId, marketId: fancy.marketId, runner: LINE[0]!.name, isBack: 0, price: 50, amount: 20 });
    await bet({ eventId: open.eventId, marketId: open.marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 10 });
    const done = await bet({ eventId: settled.eventId, marketId: settled.marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 10 });

    // Closed in this order, each in a later millisecond than the one before (closed_at is kept to the
    // millisecond, and two markets closed within one are a tie the order leaves open); the settled
    // market's only bet is settled, the empty one never had one.
    const later = () => new Promise((resolve) => setTimeout(resolve, 2));
    await odds.store.closeMarket(odds.marketId, "Beta");
    await later();
    await fancy.store.closeMarket(fancy.marketId, "47");
    await later();
    await empty.store.closeMarket(empty.marketId, "Alpha");
    await later();
    await settled.store.closeMarket(settled.marketId, "Alpha");
    expect((await settle(done, 1)).status).toBe("SUCCESS");
  });

  it("lists exactly the closed markets with pending bets, oldest closing first, with their results and totals", async () => {
    const reply = await results(`since=${encodeURIComponent(since)}`);
    expect(reply.statusCode, reply.msg).toBe(200);
    const { items, total, page, pageSize } = reply.data!;
    expect({ total, page, pageSize }).toEqual({ total: 2, page: 1, pageSize: 50 });
    expect(items.map(({ closedAt, ...rest }) => rest)).toEqual([
      {
        eventId: odds.eventId,
        event: "Alpha v Beta",
        sport: "cricket",
        marketId: odds.marketId,
        market: "Match Odds",
        type: "odds",
        result: "Beta",
        pending: 2,
        stake: 150,
        // A back of 100 risks 100; a lay of 50 at 1.62 risks 31.
        exposure: 131,
      },
      {
        eventId: fancy.eventId,
        event: "Alpha v Beta",
        sport: "cricket",
        marketId: fancy.marketId,
        market: LINE[0]!.name,
        type: "fancy",
        result: "47",
        pending: 1,
        stake: 20,
        exposure: 20,
      },
    ]);
    expect(Date.parse(items[0]!.closedAt)).toBeLessThanOrEqual(Date.parse(items[1]!.closedAt));
    expect(Date.parse(items[0]!.closedAt)).toBeGreaterThanOrEqual(Date.parse(since));
  });

  it("pages like the other lists and filters by sport", async () => {
    const second = await results(`since=${encodeURIComponent(since)}&pageSize=1&page=2`);
    expect(second.data!.items.map((item) => item.marketId)).toEqual([fancy.marketId]);
    expect(second.data!.total).toBe(2);
    expect((await results(`since=${encodeURIComponent(since)}&sport=football`)).data!.items).toEqual([]);
    expect((await results(`since=${encodeURIComponent(since)}&sport=cricket`)).data!.total).toBe(2);
  });

  it("drops a market once its last pending bet is settled", async () => {
    const market = await createMarket(db, "odds", ODDS);
    const id = await bet({ eventId: market.eventId, marketId: market.marketId, runner: "Beta", isBack: 1, price: 1.6, amount: 10 });
    await market.store.closeMarket(market.marketId, "Beta");
    const listed = async () => (await results(`since=${encodeURIComponent(since)}&pageSize=500`)).data!.items.some((item) => item.marketId === market.marketId);
    expect(await listed()).toBe(true);
    await settle(id, 1);
    expect(await listed()).toBe(false);
  });

  it("is the house desk's, scoped like the pending queue: super admin and staff with bets", async () => {
    expect((await results("", tokens.staffBets)).statusCode).toBe(200);
    for (const token of [tokens.staffUsers, tokens.partner]) expect(await results("", token)).toMatchObject({ statusCode: 403, msg: "Permission denied" });
  });

  it("refuses a malformed query", async () => {
    for (const query of ["since=yesterday", "sport=chess", "page=0", "marketId=x"]) expect((await results(query)).statusCode, query).toBe(400);
  });
});

describe("a market closed by the feed simulator", () => {
  it("appears with the winner or the run count the simulator reported", async () => {
    const since = new Date().toISOString();
    const feed = createFeedSimulator({ seed: 23, store: createFeedStore(db) });
    await feed.init();
    const event = feed.events().find((each) => each.sport === 0 && each.inplay)!;
    const markets = feed.markets().filter((market) => market.eventId === event.eventId);
    // A bet on every market of the in-play cricket event, at the price on offer now.
    for (const market of markets) {
      const runner = market.runners[0]!;
      await bet({ eventId: event.eventId, marketId: market.marketId, runner: runner.name, isBack: 1, price: runner.back!.price, amount: 10 });
    }
    const closed = await feed.finish(event.eventId);
    expect(closed.map((each) => each.marketId).sort()).toEqual(markets.map((market) => market.marketId).sort());

    const listed = (await results(`since=${encodeURIComponent(since)}&pageSize=500`)).data!.items;
    expect(listed.map(({ marketId, result }) => ({ marketId, result })).sort((a, b) => a.marketId.localeCompare(b.marketId))).toEqual(
      [...closed].sort((a, b) => a.marketId.localeCompare(b.marketId)),
    );
    for (const market of listed) {
      if (market.type === "fancy") expect(market.result).toMatch(/^\d+$/);
      else expect([event.teamA, event.teamB]).toContain(market.result);
      expect(market.pending).toBe(1);
    }
  });
});
