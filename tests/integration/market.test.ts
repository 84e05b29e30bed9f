/**
 * The market book through the sports API: each runner's book from open bets against cases
 * computed by hand, the fancy run ladder, one client's filter, partners' subtrees, the green
 * flag, the scorecard's address, and refusals.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketBets, MarketGreen, SportsBet } from "../../protocol/wire.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { positionChangeOf, positionKeyOf } from "../../platform/modules/bets/service.js";
import { checkMoneyInvariants } from "../../platform/modules/ledger/invariants.js";
import { SPORTS_API_PREFIX } from "../../platform/modules/sports/routes.js";
import { createFeedStore } from "../../platform/modules/sports/repository.js";
import { call, createAdmin, createBettor, freshIp, login, testApp, testDb, type TestAdmin, type TestUser } from "./support/platform.js";

type Bettor = TestUser & { token: string };

let app: FastifyInstance;
let partnerA: TestAdmin, partnerB: TestAdmin, partnerC: TestAdmin;
let tokens: Record<"admin" | "a" | "b" | "c" | "staffBets", string>;

beforeAll(async () => {
  app = await testApp();
  partnerA = await createAdmin({ role: 3 });
  partnerB = await createAdmin({ role: 3, parent: partnerA.id, partnerRoleLevel: 2 });
  partnerC = await createAdmin({ role: 3 });
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    a: await signIn(partnerA),
    b: await signIn(partnerB),
    c: await signIn(partnerC),
    staffBets: await signIn(await createAdmin({ role: 2, permissions: { bets: true } })),
  };
});
afterAll(() => app.close());

const sports = <T>(method: "GET" | "POST", path: string, token: string, body?: unknown) => call<T>(app, method, `${SPORTS_API_PREFIX}${path}`, { token, body });
const FANCY = "6 Over Runs Alpha";

/** A fresh cricket event with a match odds, a bookmaker and a fancy market, as a provider writes it. */
async function event() {
  const store = createFeedStore(await testDb());
  const eventId = `M${randomUUID().slice(0, 8)}`;
  const ids = { eventId, odds: `${eventId}-MO`, bookmaker: `${eventId}-BM`, fancy: `${eventId}-F6` };
  await store.putEvent({ eventId, sport: 0, teamA: "Alpha", teamB: "Beta", startTime: new Date(), inplay: true, status: "OPEN", score: [] });
  const common = { eventId, heading: null, status: "OPEN" as const };
  await store.putMarket({
    ...common,
    marketId: ids.odds,
    type: "odds",
    name: "Match Odds",
    runners: [
      { name: "Alpha", status: "ACTIVE", back: { price: 2.5, size: 1000 }, lay: { price: 2.6, size: 900 } },
      { name: "Beta", status: "SUSPENDED", back: { price: 1.6, size: 800 }, lay: { price: 1.7, size: 700 } },
    ],
  });
  await store.putMarket({
    ...common,
    marketId: ids.bookmaker,
    type: "bookmaker",
    name: "Bookmaker",
    runners: [
      { name: "Alpha", status: "ACTIVE", back: { price: 1.9, size: null }, lay: { price: 2, size: null } },
      { name: "Beta", status: "ACTIVE", back: { price: 1.8, size: null }, lay: { price: 1.85, size: null } },
    ],
  });
  await store.putMarket({
    ...common,
    marketId: ids.fancy,
    type: "fancy",
    name: FANCY,
    heading: "Session",
    runners: [{ name: FANCY, status: "ACTIVE", back: { price: 46, size: 90 }, lay: { price: 45, size: 110 } }],
  });
  return ids;
}

async function bet(user: Bettor, body: { eventId: string; marketId: string; runner: string; isBack: 0 | 1; price: number; amount: number }) {
  const reply = await call<{ _id: string }>(app, "POST", "/api/user/bet", { token: user.token, body });
  if (reply.status !== "SUCCESS") throw new Error(`bet refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data!._id;
}

const book = async (eventId: string, token: string, query = "") => {
  const reply = await sports<MarketBets>("GET", `/market-bets?eventId=${eventId}&sport=cricket${query}`, token);
  expect(reply.statusCode, reply.msg).toBe(200);
  return reply.data!;
};
const runnerProfits = (markets: MarketBets["odds"] | MarketBets["bookmakers"]) => markets.map((market) => market.runners.map((runner) => [runner.name, runner.profit]));
const ladder = (answer: MarketBets, nums: number[]) => nums.map((num) => answer.fancy.Session![0]!.numbers.find((entry) => entry.num === num)?.profit);

describe("market-bets", () => {
  // u1 under partner A, u2 under partner B (below A), u3 under partner C.
  let ids: Awaited<ReturnType<typeof event>>;
  let u1: Bettor, u2: Bettor, u3: Bettor;
  let u3Odds: string, u3Bookmaker: string;
  beforeAll(async () => {
    ids = await event();
    [u1, u2, u3] = [await createBettor(app, partnerA.id), await createBettor(app, partnerB.id), await createBettor(app, partnerC.id)];
    const odds = { eventId: ids.eventId, marketId: ids.odds };
    // back Alpha 100 at 2.50: Alpha wins −150, Beta wins +100
    await bet(u1, { ...odds, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    // lay Alpha 100 at 2.60 (exposure 160): Alpha wins +160, Beta wins −100
    await bet(u2, { ...odds, runner: "Alpha", isBack: 0, price: 2.6, amount: 100 });
    // back Alpha 40 at 2.50: Alpha wins −60, Beta wins +40 (Beta itself is suspended in match odds)
    u3Odds = await bet(u3, { ...odds, runner: "Alpha", isBack: 1, price: 2.5, amount: 40 });
    // bookmaker back Alpha 100 at 1.90: Alpha −90, Beta +100; lay Beta 100 at 1.85 (exposure 85): Beta +85, Alpha −100
    await bet(u1, { eventId: ids.eventId, marketId: ids.bookmaker, runner: "Alpha", isBack: 1, price: 1.9, amount: 100 });
    u3Bookmaker = await bet(u3, { eventId: ids.eventId, marketId: ids.bookmaker, runner: "Beta", isBack: 0, price: 1.85, amount: 100 });
    // fancy yes 100 at 46, rate 90: runs ≥ 46 −90, else +100; no 100 at 45, rate 110: runs ≥ 45 +110, else −100
    await bet(u1, { eventId: ids.eventId, marketId: ids.fancy, runner: FANCY, isBack: 1, price: 46, amount: 100 });
    await bet(u2, { eventId: ids.eventId, marketId: ids.fancy, runner: FANCY, isBack: 0, price: 45, amount: 100 });
  });

  it("gives the house each runner's book, the prices, statuses, open stake and run ladder", async () => {
    const answer = await book(ids.eventId, tokens.admin);
    // Alpha: −150 + 160 − 60 = −50; Beta: 100 − 100 + 40 = 40
    expect(answer.odds).toEqual([
      {
        marketId: ids.odds,
        name: "Match Odds",
        status: "OPEN",
        runners: [
          { name: "Alpha", status: "ACTIVE", profit: -50, back: { price: 2.5, size: 1000 }, lay: { price: 2.6, size: 900 } },
          { name: "Beta", status: "SUSPENDED", profit: 40, back: { price: 1.6, size: 800 }, lay: { price: 1.7, size: 700 } },
        ],
      },
    ]);
    // Alpha: −90 − 100 = −190; Beta: 100 + 85 = 185
    expect(answer.bookmakers).toEqual([
      {
        marketId: ids.bookmaker,
        name: "Bookmaker",
        status: "OPEN",
        runners: [
          { name: "Alpha", status: "ACTIVE", profit: -190, back: 1.9, lay: 2 },
          { name: "Beta", status: "ACTIVE", profit: 185, back: 1.8, lay: 1.85 },
        ],
      },
    ]);
    const entry = answer.fancy.Session![0]!;
    expect(entry).toMatchObject({ marketId: ids.fancy, name: FANCY, status: "OPEN", amounts: 200, back: { price: 46, size: 90 }, lay: { price: 45, size: 110 } });
    // From 5 below the lowest line (45) to 5 above the highest (46).
    expect(entry.numbers.map((row) => row.num)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51]);
    // below 45: +100 − 100; at 45: +100 + 110; from 46: −90 + 110
    expect(ladder(answer, [40, 44, 45, 46, 51])).toEqual([0, 0, 210, 20, 20]);
    expect(answer.users.map((user) => user.username)).toEqual([u1.username, u2.username, u3.username].sort());
  });

  it("restricts the book to one client's bets", async () => {
    const answer = await book(ids.eventId, tokens.staffBets, `&client=${u1.id}`);
    expect(runnerProfits(answer.odds)).toEqual([[["Alpha", -150], ["Beta", 100]]]);
    expect(runnerProfits(answer.bookmakers)).toEqual([[["Alpha", -90], ["Beta", 100]]]);
    expect(answer.fancy.Session![0]!.amounts).toBe(100);
    expect(ladder(answer, [45, 46])).toEqual([100, -90]);
    // The users row still lists everyone the caller may choose from.
    expect(answer.users).toHaveLength(3);
  });

  it("shows a partner its subtree's bets at 100 % and nobody else's", async () => {
    const a = await book(ids.eventId, tokens.a);
    // u1 and u2: Alpha −150 + 160 = 10; Beta 100 − 100 = 0
    expect(runnerProfits(a.odds)).toEqual([[["Alpha", 10], ["Beta", 0]]]);
    expect(a.users.map((user) => user.username).sort()).toEqual([u1.username, u2.username].sort());
    const b = await book(ids.eventId, tokens.b);
    expect(runnerProfits(b.odds)).toEqual([[["Alpha", 160], ["Beta", -100]]]);
    expect(ladder(b, [44, 45])).toEqual([-100, 110]);
    expect(b.users.map((user) => user.username)).toEqual([u2.username]);
    // A client outside the subtree adds nothing.
    const outside = await book(ids.eventId, tokens.b, `&client=${u3.id}`);
    expect(runnerProfits(outside.odds)).toEqual([[["Alpha", 0], ["Beta", 0]]]);
    expect(outside.users.map((user) => user.username)).toEqual([u2.username]);
  });

  it("takes a settled bet off the book", async () => {
    const settled = await call<SportsBet>(app, "POST", "/settel-bet", { token: tokens.admin, body: { bet: { _id: u3Odds }, status: 2 } });
    expect(settled.status).toBe("SUCCESS");
    const answer = await book(ids.eventId, tokens.admin);
    expect(runnerProfits(answer.odds)).toEqual([[["Alpha", 10], ["Beta", 0]]]);
    expect(answer.users).toHaveLength(3); // u3 still holds the bookmaker bet
    expect(answer.usersTotal).toBe(3);
  });

  it("lists only the first users by username when asked (usersLimit), and counts them all", async () => {
    const everyone = [u1.username, u2.username, u3.username].sort();
    expect((await book(ids.eventId, tokens.admin)).usersTotal).toBe(3);
    const firstTwo = await book(ids.eventId, tokens.admin, "&usersLimit=2");
    expect(firstTwo.users.map((user) => user.username)).toEqual(everyone.slice(0, 2));
    expect(firstTwo.usersTotal).toBe(3);
    const none = await book(ids.eventId, tokens.a, "&usersLimit=0");
    expect(none).toMatchObject({ users: [], usersTotal: 2 });
    // The book itself is the same whatever the list.
    expect(firstTwo.odds).toEqual((await book(ids.eventId, tokens.admin)).odds);
    for (const hostile of ["1001", "-1", "abc", "1.5", "1e3x", "%00"]) {
      const refused = await sports("GET", `/market-bets?eventId=${ids.eventId}&sport=cricket&usersLimit=${hostile}`, tokens.admin);
      expect({ hostile, statusCode: refused.statusCode }).toEqual({ hostile, statusCode: 400 });
      expect(refused.msg).toMatch(/usersLimit/);
    }
  });

  it("counts a user out of the event once their last open bet on it is settled", async () => {
    const settled = await call<SportsBet>(app, "POST", "/settel-bet", { token: tokens.admin, body: { bet: { _id: u3Bookmaker }, status: 3 } });
    expect(settled.status).toBe("SUCCESS");
    const answer = await book(ids.eventId, tokens.admin, "&usersLimit=10");
    expect(answer.users.map((user) => user.username)).toEqual([u1.username, u2.username].sort());
    expect(answer.usersTotal).toBe(2);
  });

  it("answers 404 for an unknown event or the wrong sport, and 400 for a bad query", async () => {
    expect((await sports("GET", "/market-bets?eventId=no-such-event&sport=cricket", tokens.admin)).statusCode).toBe(404);
    expect((await sports("GET", `/market-bets?eventId=${ids.eventId}&sport=tennis`, tokens.admin)).statusCode).toBe(404);
    const bad = await sports("GET", `/market-bets?eventId=${ids.eventId}&client=abc`, tokens.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.msg).toMatch(/client/);
  });
});

describe("market positions", () => {
  it("keep their totals and bettors exact while the same users place and settle on one event at once", async () => {
    const ids = await event();
    const bettors = await Promise.all([0, 1, 2, 3, 4, 5].map(() => createBettor(app, partnerC.id)));
    const odds = { eventId: ids.eventId, marketId: ids.odds, runner: "Alpha", isBack: 1 as const, price: 2.5 };
    const bookmaker = { eventId: ids.eventId, marketId: ids.bookmaker, runner: "Beta", isBack: 0 as const, price: 1.85 };
    const first = await Promise.all(bettors.map((user) => bet(user, { ...odds, amount: 10 })));
    // Each user's only bet settles while half of them place another on the event's other market.
    await Promise.all([
      ...first.map((id) => call(app, "POST", "/settel-bet", { token: tokens.admin, body: { bet: { _id: id }, status: 2 } })),
      ...bettors.slice(0, 3).map((user) => bet(user, { ...bookmaker, amount: 5 })),
    ]);
    const answer = await book(ids.eventId, tokens.admin);
    expect(answer.users.map((user) => user.username)).toEqual(bettors.slice(0, 3).map((user) => user.username).sort());
    expect(answer.usersTotal).toBe(3);
    const { positionsOff, bookTotalsOff, bettorsOff } = await checkMoneyInvariants(await testDb());
    expect({ positionsOff, bookTotalsOff, bettorsOff }).toEqual({ positionsOff: 0, bookTotalsOff: 0, bettorsOff: 0 });
  });

  it("equal the open bets, seeded, placed and settled alike", async () => {
    const db = await testDb();
    const open = await db.selectFrom("sports_bets").selectAll().where("status", "=", "PENDING").where("market_id", "is not", null).execute();
    expect(open.length).toBeGreaterThan(100); // the seed's pending bets are in
    const expected = new Map<string, [bigint, bigint, bigint, bigint]>();
    for (const bet of open) {
      const key = positionKeyOf({ ...bet, market_id: bet.market_id! });
      const id = `${key.market_id}|${key.runner}|${Number(key.line)}|${key.user_id}`;
      const hundredths = (value: string) => BigInt(Math.round(Number(value) * 100));
      const change = positionChangeOf({ type: bet.market_type, isBack: bet.is_back, amount: bet.amount, x: hundredths(bet.price), odds: hundredths(bet.odds ?? bet.price), exposure: bet.exposure });
      const [won, lost, stake, bets] = expected.get(id) ?? [0n, 0n, 0n, 0n];
      expected.set(id, [won + change.ifWon, lost + change.ifLost, stake + change.stake, bets + 1n]);
    }
    const stored = await db.selectFrom("market_positions").selectAll().execute();
    expect(new Map(stored.map((row) => [`${row.market_id}|${row.runner}|${Number(row.line)}|${row.user_id}`, [row.if_won, row.if_lost, row.stake, row.bets]]))).toEqual(expected);
    // The kept totals (the house's book) are the positions summed over users, none left at no bets.
    const summed = new Map<string, bigint[]>();
    for (const [id, values] of expected) {
      const key = id.slice(0, id.lastIndexOf("|"));
      summed.set(key, (summed.get(key) ?? [0n, 0n, 0n, 0n]).map((sum, index) => sum + values[index]!));
    }
    const totals = await db.selectFrom("market_book_totals").selectAll().execute();
    expect(new Map(totals.map((row) => [`${row.market_id}|${row.runner}|${Number(row.line)}`, [row.if_won, row.if_lost, row.stake, row.bets]]))).toEqual(summed);
    // The kept bettors: each user's positions on each event, and each event's users (none left at 0 positions).
    const perBettor = new Map<string, bigint>();
    for (const row of stored) perBettor.set(`${row.event_id}|${row.user_id}`, (perBettor.get(`${row.event_id}|${row.user_id}`) ?? 0n) + 1n);
    const bettors = await db.selectFrom("market_event_bettors").selectAll().execute();
    expect(new Map(bettors.map((row) => [`${row.event_id}|${row.user_id}`, row.positions]))).toEqual(perBettor);
    const perEvent = new Map<string, bigint>();
    for (const key of perBettor.keys()) perEvent.set(key.split("|")[0]!, (perEvent.get(key.split("|")[0]!) ?? 0n) + 1n);
    const counts = await db.selectFrom("market_event_bettor_counts").selectAll().where("n", ">", 0n).execute();
    expect(new Map(counts.map((row) => [row.event_id, row.n]))).toEqual(perEvent);
  });
});

describe("market-green", () => {
  it("is green when every odds and bookmaker market with bets gains whichever runner wins, for the caller's scope", async () => {
    const green = await event();
    const red = await event();
    const quiet = await event();
    const u1 = await createBettor(app, partnerA.id);
    const u2 = await createBettor(app, partnerB.id);
    // bookmaker back Alpha 100 at 1.90 (Alpha −90, Beta +100) and back Beta 120 at 1.80 (Beta −96, Alpha +120): Alpha +30, Beta +4
    await bet(u1, { eventId: green.eventId, marketId: green.bookmaker, runner: "Alpha", isBack: 1, price: 1.9, amount: 100 });
    await bet(u2, { eventId: green.eventId, marketId: green.bookmaker, runner: "Beta", isBack: 1, price: 1.8, amount: 120 });
    // A fancy loss does not count: fancy yes 100 at 46 could cost 90.
    await bet(u1, { eventId: green.eventId, marketId: green.fancy, runner: FANCY, isBack: 1, price: 46, amount: 100 });
    // red: back Alpha 100 at 2.50 alone loses 150 if Alpha wins
    await bet(u1, { eventId: red.eventId, marketId: red.odds, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    const eventIds = [green.eventId, red.eventId, quiet.eventId, "no-such-event"];
    const lookup = async (token: string) => (await sports<MarketGreen>("POST", "/market-green", token, { eventIds })).data;
    expect(await lookup(tokens.admin)).toEqual({ [green.eventId]: true, [red.eventId]: false, [quiet.eventId]: false, "no-such-event": false });
    // Partner B holds only u2's back Beta: Alpha +120, Beta −96 → not green. Partner C holds nothing.
    expect((await lookup(tokens.b))![green.eventId]).toBe(false);
    expect((await lookup(tokens.c))![green.eventId]).toBe(false);
    expect((await lookup(tokens.a))![green.eventId]).toBe(true);
  });

  it("refuses a body that is not a list of event ids", async () => {
    const reply = await sports("POST", "/market-green", tokens.admin, { eventIds: ["bad id!"] });
    expect(reply.statusCode).toBe(400);
    expect(reply.msg).toMatch(/eventIds/);
  });
});

describe("scorecard", () => {
  it("gives the address of the platform's scorecard page, which only the console may frame", async () => {
    const { eventId } = await event();
    const reply = await sports<{ url: string }>("GET", `/scorecard/${eventId}?sport=cricket`, tokens.a);
    expect(reply.data!.url).toMatch(new RegExp(`^http://[^/]+/api/scorecard-page/${eventId}$`));
    const page = await app.inject({ method: "GET", url: new URL(reply.data!.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/frame-ancestors /);
    expect((await sports("GET", "/scorecard/no-such-event?sport=cricket", tokens.admin)).statusCode).toBe(404);
  });
});
