/**
 * GET /sports-pending-bets?totals=1 (extension, issue 20): the filtered queue's totals in all and
 * per market, from the kept counts (none, one event, market or sport) or summed from the rows (a
 * user, combined filters); always equal to a sum over the pending rows themselves, after placing
 * and after settling. The spec profile drops the parameter and answers no totals.
 */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, PendingTotals, SportsBet } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { call, createBettor, createMarket, freshIp, houseId, login, testApp, testDb, type RunnerSpec } from "./support/platform.js";

type Answer = Page<SportsBet> & { totals?: PendingTotals };

const RUNNERS: RunnerSpec[] = [
  { name: "Alpha", back: { price: 2.5, size: 100_000 }, lay: { price: 2.52, size: 100_000 } },
  { name: "Beta", back: { price: 1.6, size: 100_000 }, lay: { price: 1.62, size: 100_000 } },
];

let app: FastifyInstance, spec: FastifyInstance;
let db: Db;
let token: string, specToken: string;

beforeAll(async () => {
  db = await testDb();
  [app, spec] = await Promise.all([testApp(), testApp({ PLATFORM_PROFILE: "spec" })]);
  const signIn = (on: FastifyInstance) => login(on, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
  [token, specToken] = await Promise.all([signIn(app), signIn(spec)]);
});
afterAll(async () => {
  await Promise.all([app.close(), spec.close()]);
});

const pending = async (query: string, on = app, as = token) => {
  const reply = await call<Answer>(on, "GET", `/sports-pending-bets?${query}`, { token: as });
  expect(reply.statusCode).toBe(200);
  return reply.data!;
};

const amount = (minor: string | bigint | null) => Number(minor ?? 0) / 100;

/** The totals summed from the pending rows a WHERE clause picks: the truth the kept counts must equal. */
async function rowTotals(where: ReturnType<typeof sql>) {
  const rows = await sql<{ event_id: string; market_id: string; n: string; stake: string; exposure: string }>`
    select event_id, market_id, count(*) as n, sum(amount) as stake, sum(exposure) as exposure
      from sports_bets b where status = 'PENDING' and ${where} group by event_id, market_id`.execute(db);
  const markets = rows.rows.map((row) => ({ eventId: row.event_id, marketId: row.market_id, count: Number(row.n), stake: amount(row.stake), exposure: amount(row.exposure) }));
  const sum = (field: "count" | "stake" | "exposure") => Math.round(markets.reduce((total, market) => total + market[field] * 100, 0)) / 100;
  return { count: sum("count"), stake: sum("stake"), exposure: sum("exposure"), markets };
}

const shape = (totals: PendingTotals) => ({
  count: totals.count,
  stake: totals.stake,
  exposure: totals.exposure,
  markets: totals.markets.map(({ eventId, marketId, count, stake, exposure }) => ({ eventId, marketId, count, stake, exposure })),
});
const byMarket = <T extends { marketId: string }>(markets: T[]) => [...markets].sort((a, b) => a.marketId.localeCompare(b.marketId));

describe("pending totals (?totals=1)", () => {
  it("equal the pending rows' sums for every filter, after placing and after settling", async () => {
    const [first, second] = [await createMarket(db, "odds", RUNNERS, { sport: 1 }), await createMarket(db, "odds", RUNNERS, { sport: 1 })];
    const parent = await houseId();
    const [ann, bob] = [await createBettor(app, parent, 5_000_000n), await createBettor(app, parent, 5_000_000n)];
    const placed: string[] = [];
    for (const [who, where, runner, isBack, price, stake] of [
      [ann, first, "Alpha", 1, 2.5, 100],
      [ann, first, "Alpha", 0, 2.52, 40.5],
      [bob, first, "Beta", 1, 1.6, 250],
      [bob, second, "Alpha", 1, 2.5, 12.34],
      [ann, second, "Beta", 0, 1.62, 75],
    ] as const) {
      const reply = await call<{ _id: string }>(app, "POST", "/api/user/bet", {
        token: who.token,
        body: { eventId: where.eventId, marketId: where.marketId, runner, isBack, price, amount: stake },
      });
      expect(reply.status, reply.msg).toBe("SUCCESS");
      placed.push(reply.data!._id);
    }

    const check = async (query: string, where: ReturnType<typeof sql>) => {
      const answer = await pending(`${query}&totals=1`);
      const truth = await rowTotals(where);
      expect({ ...shape(answer.totals!), markets: byMarket(shape(answer.totals!).markets) }).toEqual({ ...truth, markets: byMarket(truth.markets) });
      expect(answer.totals!.count).toBe(answer.total);
      // Largest exposure first.
      const exposures = answer.totals!.markets.map((market) => market.exposure);
      expect(exposures).toEqual([...exposures].sort((a, b) => b - a));
      return answer.totals!;
    };
    const checkAll = async () => {
      const byEvent = await check(`eventId=${first.eventId}`, sql`event_id = ${first.eventId}`);
      expect(byEvent.markets.map(({ event, market }) => [event, market])).toEqual([["Alpha v Beta", "Match Odds"]]);
      await check(`marketId=${second.marketId}`, sql`market_id = ${second.marketId}`);
      await check(`user=${ann.id}`, sql`user_id = ${ann.id}`);
      await check(`sport=football&eventId=${first.eventId}`, sql`sport = 1 and event_id = ${first.eventId}`);
      // Combined filters the platform narrows to one kept count, or to nothing when they disagree.
      await check(`eventId=${second.eventId}&marketId=${second.marketId}`, sql`event_id = ${second.eventId} and market_id = ${second.marketId}`);
      await check(`sport=football&marketId=${first.marketId}`, sql`sport = 1 and market_id = ${first.marketId}`);
      await check(`eventId=${first.eventId}&marketId=${second.marketId}`, sql`event_id = ${first.eventId} and market_id = ${second.marketId}`);
      await check(`sport=cricket&eventId=${first.eventId}`, sql`sport = 0 and event_id = ${first.eventId}`);
      await check("sport=football", sql`sport = 1`);
      await check("page=1", sql`true`);
    };
    await checkAll();

    const settled = await call(app, "POST", "/settel-bet", { token, body: { bet: { _id: placed[0] }, status: 1 } });
    expect(settled.status).toBe("SUCCESS");
    await checkAll();
    expect((await pending(`eventId=${first.eventId}&totals=1`)).totals!.count).toBe(2);
  });

  it("are only given when asked", async () => {
    expect(await pending("page=1")).not.toHaveProperty("totals");
    expect(await pending("page=1&totals=0")).not.toHaveProperty("totals");
  });

  it("are not answered by the spec profile, which ignores the parameter", async () => {
    const answer = await pending("totals=1", spec, specToken);
    expect(answer).not.toHaveProperty("totals");
    expect(answer.items).toBeInstanceOf(Array);
  });
});
