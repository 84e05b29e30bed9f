/**
 * Reports against hand-computed fixtures: a partner P with a sub-panel S, different shares per
 * game, wins and losses over three Asia/Kolkata days (one past a UTC midnight), a range that
 * excludes the third day; who may ask for whom; bad queries; and the rollup kept by a real
 * settlement (casino bets through the end-user API).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_FLAGS, SPORTS, type CasinoBet, type GameFigures, type GameFlag, type ReportV1, type ReportV2, type SportsBet } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import type { ChainLink } from "../../platform/db/schema.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { kolkataToday } from "../../platform/validation/days.js";
import { call, createAdmin, createPlayer, createUser, freshIp, login, testApp, testDb, type TestAdmin, type TestUser } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let partnerP: TestAdmin, panelS: TestAdmin, stranger: TestAdmin;
let userP: TestUser, userS: TestUser;
let tokens: Record<"admin" | "p" | "s" | "staffReport" | "stranger", string>;

// Shares (percent) per game: P passes part of its share down to S; on fancy it passes it all.
const SHARE_P = { cricket: 80, casino: 70, fancy: 75 } as const;
const SHARE_S = { cricket: 60, casino: 40, fancy: 75 } as const;

const DAY1 = "2025-03-01";
const DAY2 = "2025-03-02";
const DAY3 = "2025-03-03";

/** A figure per game: the given ones, 0 elsewhere. */
const games = (figures: Partial<GameFigures>): GameFigures =>
  Object.fromEntries(GAME_FLAGS.map((game) => [game, figures[game] ?? 0])) as GameFigures;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  partnerP = await createAdmin({ role: 3 });
  panelS = await createAdmin({ role: 3, parent: partnerP.id, partnerRoleLevel: 2 });
  stranger = await createAdmin({ role: 3 });
  userP = await createUser(partnerP.id);
  userS = await createUser(panelS.id);
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    p: await signIn(partnerP),
    s: await signIn(panelS),
    stranger: await signIn(stranger),
    staffReport: await signIn(await createAdmin({ role: 2, permissions: { report: true } })),
  };

  const chainOf = (user: TestUser, game: keyof typeof SHARE_P): ChainLink[] => {
    const p = { id: String(partnerP.id), share: SHARE_P[game] };
    return user === userS ? [{ id: String(panelS.id), share: SHARE_S[game] }, p] : [p];
  };
  // [user, game, house result in rupees (positive: the user lost), settled at (UTC)]
  const results: [TestUser, keyof typeof SHARE_P, number, string][] = [
    [userP, "cricket", 1000, "2025-03-01T18:00:00Z"], // 23:30 in Kolkata: day 1
    [userS, "cricket", -500, "2025-03-01T06:00:00Z"],
    [userS, "casino", 200, "2025-03-01T10:00:00Z"],
    [userP, "casino", -300, "2025-02-28T18:30:00Z"], // 00:00 in Kolkata: day 1
    [userS, "fancy", 400, "2025-03-02T08:00:00Z"],
    [userP, "cricket", -100, "2025-03-01T19:00:00Z"], // 00:30 in Kolkata: day 2
    [userP, "cricket", 999, "2025-03-03T04:00:00Z"], // day 3
  ];
  // Migration 009's trigger adds them to the rollup.
  await db
    .insertInto("bet_results")
    .values(
      results.map(([user, game, rupees, at], i) => ({
        bet_kind: "casino" as const,
        bet_id: BigInt(900_000 + i),
        settled_at: new Date(at),
        game,
        user_id: user.id,
        house_result: BigInt(rupees * 100),
        chain: JSON.stringify(chainOf(user, game)),
      })),
    )
    .execute();
});
afterAll(() => app.close());

const report = <T>(version: "v1" | "v2", token: string, query: Record<string, string>) =>
  call<T>(app, "GET", `${version === "v1" ? "/b2c/report" : "/report"}?${new URLSearchParams(query)}`, { token });
const days12 = { from: DAY1, to: DAY2 };

describe("report arithmetic", () => {
  it("v1 for a partner: its whole subtree's book at 100 % per game, the total and the daily series", async () => {
    const reply = await report<ReportV1>("v1", tokens.admin, { ...days12, user: String(partnerP.id), type: "partner" });
    expect(reply.statusCode).toBe(200);
    // cricket 1000 − 500 − 100; casino 200 − 300; fancy 400
    expect(reply.data).toEqual({
      profit: games({ cricket: 400, casino: -100, fancy: 400 }),
      profit2: { total: 700 },
      daily: [
        { day: DAY1, profit: 400 },
        { day: DAY2, profit: 300 },
      ],
    });
  });

  it("v2 for a partner: direct and indirect users, and myShare net of what it passed down to its sub-panel", async () => {
    const reply = await report<ReportV2>("v2", tokens.p, days12);
    expect(reply.statusCode).toBe(200);
    expect(reply.data!.direct).toEqual(games({ cricket: 900, casino: -300 }));
    expect(reply.data!.indirect).toEqual(games({ cricket: -500, casino: 200, fancy: 400 }));
    // cricket 80 % × 900 + (80 − 60) % × −500 = 720 − 100; casino 70 % × −300 + (70 − 40) % × 200 = −210 + 60;
    // fancy (75 − 75) % × 400 = 0
    expect(reply.data!.myShare).toEqual(games({ cricket: 620, casino: -150, fancy: 0 }));
  });

  it("v2 for the sub-panel, as itself: its users are direct, its share is whole", async () => {
    const reply = await report<ReportV2>("v2", tokens.s, days12);
    expect(reply.data!.direct).toEqual(games({ cricket: -500, casino: 200, fancy: 400 }));
    expect(reply.data!.indirect).toEqual(games({}));
    // 60 % × −500, 40 % × 200, 75 % × 400
    expect(reply.data!.myShare).toEqual(games({ cricket: -300, casino: 80, fancy: 300 }));
  });

  it("the house keeps what the top partner did not take, and the three shares add up to the book", async () => {
    const house = (await report<ReportV2>("v2", tokens.admin, days12)).data!;
    expect(house.direct).toEqual(games({}));
    expect(house.indirect).toEqual(games({ cricket: 400, casino: -100, fancy: 400 }));
    // (100 − 80) % × 400, (100 − 70) % × −100, (100 − 75) % × 400
    expect(house.myShare).toEqual(games({ cricket: 80, casino: -30, fancy: 100 }));
    const p = (await report<ReportV2>("v2", tokens.p, days12)).data!;
    const s = (await report<ReportV2>("v2", tokens.s, days12)).data!;
    for (const game of GAME_FLAGS) {
      expect(house.myShare![game] + p.myShare![game] + s.myShare![game]).toBeCloseTo(house.indirect![game], 2);
    }
  });

  it("v1 and v2 for one user: its own results, direct only", async () => {
    const query = { ...days12, user: String(userS.id), type: "user" };
    expect((await report<ReportV1>("v1", tokens.p, query)).data!.profit).toEqual(games({ cricket: -500, casino: 200, fancy: 400 }));
    expect((await report<ReportV2>("v2", tokens.p, query)).data).toEqual({
      direct: games({ cricket: -500, casino: 200, fancy: 400 }),
      daily: [
        { day: DAY1, profit: -300 },
        { day: DAY2, profit: 400 },
      ],
    });
  });

  it("a range counts whole Asia/Kolkata days, both ends inclusive", async () => {
    const id = String(partnerP.id);
    const three = await report<ReportV1>("v1", tokens.admin, { from: DAY1, to: DAY3, user: id, type: "partner" });
    expect(three.data!.profit.cricket).toBe(400 + 999);
    const lastDay = await report<ReportV1>("v1", tokens.admin, { from: DAY3, to: DAY3, user: id, type: "partner" });
    expect(lastDay.data!.profit).toEqual(games({ cricket: 999 }));
    // `to` defaults to `from`: day 2 alone holds the 00:30 cricket loss and the fancy result.
    const day2 = await report<ReportV1>("v1", tokens.admin, { from: DAY2, user: id, type: "partner" });
    expect(day2.data!.profit).toEqual(games({ cricket: -100, fancy: 400 }));
  });

  it("without dates the report is today's", async () => {
    const reply = await report<ReportV1>("v1", tokens.p, {});
    expect(reply.statusCode).toBe(200);
    expect(reply.data!.daily!.every((point) => point.day === kolkataToday())).toBe(true);
  });
});

describe("who may ask for whom", () => {
  it("a partner may ask for its own subtree only", async () => {
    const asked = async (token: string, user: bigint, type: string) => (await report("v2", token, { user: String(user), type })).statusCode;
    expect(await asked(tokens.p, panelS.id, "partner")).toBe(200);
    expect(await asked(tokens.p, userS.id, "user")).toBe(200);
    expect(await asked(tokens.s, partnerP.id, "partner")).toBe(403);
    expect(await asked(tokens.s, userP.id, "user")).toBe(403);
    expect(await asked(tokens.stranger, userS.id, "user")).toBe(403);
    expect(await asked(tokens.stranger, partnerP.id, "partner")).toBe(403);
  });

  it("staff with report see anyone, the house by default", async () => {
    const house = await report<ReportV2>("v2", tokens.staffReport, days12);
    expect(house.data!.myShare).toEqual(games({ cricket: 80, casino: -30, fancy: 100 }));
    expect((await report("v1", tokens.staffReport, { user: String(userP.id), type: "user" })).statusCode).toBe(200);
  });

  it("an unknown subject is a 404", async () => {
    const user = await report("v1", tokens.admin, { user: "999999999", type: "user" });
    expect([user.statusCode, user.msg]).toEqual([404, "User not found"]);
    // A user's id is no partner.
    const partner = await report("v1", tokens.admin, { user: String(userP.id), type: "partner" });
    expect([partner.statusCode, partner.msg]).toEqual([404, "Partner not found"]);
  });
});

describe("bad queries are refused, naming the field", () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ["from after to", { from: DAY2, to: DAY1 }, /from/],
    ["not a date", { from: "01-03-2025" }, /from/],
    ["no such day", { to: "2025-02-30" }, /to/],
    ["unknown type", { user: "1", type: "panel" }, /type/],
    ["a user without its type", { user: "1" }, /type/],
    ["a type without its user", { type: "user" }, /user/],
    ["an id that is no number", { user: "abc", type: "user" }, /user/],
    ["an unknown parameter", { sort: "profit" }, /sort|Unrecognized/],
  ];
  it.each(cases)("%s", async (_label, query, field) => {
    for (const version of ["v1", "v2"] as const) {
      const reply = await report(version, tokens.admin, query);
      expect(reply.statusCode).toBe(400);
      expect(reply.msg).toMatch(field);
    }
  });
});

describe("the rollup is kept by each settlement", () => {
  it("casino bets settled through the end-user API show in today's report of their partner", async () => {
    const partner = await createAdmin({ role: 3 });
    await db
      .updateTable("admins")
      .set({ share: JSON.stringify(Object.fromEntries(GAME_FLAGS.map((game): [GameFlag, number] => [game, game === "casino" ? 70 : 50]))) })
      .where("id", "=", partner.id)
      .execute();
    const player = await createPlayer(app, partner.id, 1_000_000n);
    await db.updateTable("users").set({ permissions: JSON.stringify({ casino: true }) }).where("id", "=", player.id).execute();
    let book = 0;
    for (let round = 1; round <= 8; round++) {
      const reply = await call<{ bet: CasinoBet }>(app, "POST", "/api/user/casino-bet", {
        token: player.token,
        body: { providerCode: "EVO", gameCode: "roulette", roundId: `r${round}`, amount: 10 + round },
      });
      expect(reply.statusCode).toBe(200);
      book += reply.data!.bet.loss - reply.data!.bet.profit;
    }
    const partnerToken = await login(app, partner.username, partner.password, freshIp());
    const v2 = await report<ReportV2>("v2", partnerToken, {});
    expect(v2.data!.direct.casino).toBeCloseTo(book, 2);
    expect(v2.data!.myShare!.casino).toBeCloseTo(book * 0.7, 2);
    const v1 = await report<ReportV1>("v1", partnerToken, {});
    expect(v1.data!.profit2.total).toBeCloseTo(book, 2);
  });

  it("a settlement and its resettlement move the report by the new outcome only", async () => {
    const partner = await createAdmin({ role: 3 });
    const player = await createPlayer(app, partner.id, 1_000_000n);
    await db
      .updateTable("users")
      .set({ permissions: JSON.stringify(Object.fromEntries(GAME_FLAGS.map((game) => [game, true]))) })
      .where("id", "=", player.id)
      .execute();
    // A match-odds runner the seeded feed offers.
    const offer = await db
      .selectFrom("sports_runners as r")
      .innerJoin("sports_markets as m", "m.market_id", "r.market_id")
      .innerJoin("sports_events as e", "e.event_id", "m.event_id")
      .select(["e.event_id", "e.sport", "m.market_id", "r.name", "r.back_price"])
      .where("m.type", "=", "odds")
      .where("m.status", "in", ["OPEN", "ACTIVE"])
      .where("e.status", "in", ["OPEN", "ACTIVE"])
      .where("r.status", "in", ["OPEN", "ACTIVE"])
      .where("r.back_price", "is not", null)
      .limit(1)
      .executeTakeFirstOrThrow();
    const placed = await call<{ _id: string }>(app, "POST", "/api/user/bet", {
      token: player.token,
      body: { eventId: offer.event_id, marketId: offer.market_id, runner: offer.name, isBack: 1, price: Number(offer.back_price), amount: 100 },
    });
    expect(placed.statusCode).toBe(200);
    const game = SPORTS[offer.sport]!;
    const partnerToken = await login(app, partner.username, partner.password, freshIp());
    const direct = async () => (await report<ReportV2>("v2", partnerToken, {})).data!.direct[game];

    // Lost: the house gains the stake, 100.
    const bet = { _id: placed.data!._id };
    expect((await call<SportsBet>(app, "POST", "/settel-bet", { token: tokens.admin, body: { bet, status: 2 } })).statusCode).toBe(200);
    expect(await direct()).toBe(100);
    // Resettled as void: the loss is reversed and nothing replaces it.
    expect((await call<SportsBet>(app, "POST", "/resettle-bet", { token: tokens.admin, body: { bet, status: 3 } })).statusCode).toBe(200);
    expect(await direct()).toBe(0);
  });
});
