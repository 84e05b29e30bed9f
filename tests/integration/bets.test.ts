import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTLE_CONCURRENCY } from "../../app/lib/constants.js";
import { inBatches } from "../../app/machines/in-batches.js";
import { WIRE_MESSAGE, type CasinoBet, type GameBet, type Page, type SportsBet, type UserProfit } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import type { MarketType } from "../../platform/db/schema.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { BET_EXPOSURE } from "../../platform/modules/bets/service.js";
import { mulberry32 } from "../../platform/sim/random.js";
import {
  call,
  createAdmin,
  createBettor,
  createMarket,
  freshIp,
  houseId,
  ledgerBreaches,
  login,
  testApp,
  testDb,
  type RunnerSpec,
  type TestAdmin,
  type TestUser,
} from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let partnerA: TestAdmin, partnerB: TestAdmin, partnerC: TestAdmin;
let tokens: Record<"admin" | "a" | "b" | "c" | "staffBets" | "staffUsers" | "staffBetsOnly", string>;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  partnerA = await createAdmin({ role: 3 });
  partnerB = await createAdmin({ role: 3, parent: partnerA.id, partnerRoleLevel: 2 });
  partnerC = await createAdmin({ role: 3 });
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  const staffBets = await createAdmin({ role: 2, permissions: { bets: true } });
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    a: await signIn(partnerA),
    b: await signIn(partnerB),
    c: await signIn(partnerC),
    staffBets: await signIn(staffBets),
    staffBetsOnly: await signIn(staffBets),
    staffUsers: await signIn(await createAdmin({ role: 2, permissions: { users: true } })),
  };
});
afterAll(() => app.close());

const get = <T>(path: string, token: string) => call<T>(app, "GET", path, { token });
const post = <T>(path: string, token: string, body: unknown) => call<T>(app, "POST", path, { token, body });

type Player = TestUser & { token: string };

const player = (parent: bigint, balance?: bigint): Promise<Player> => createBettor(app, parent, balance);

/** A fresh event with one market of `type` (support/platform.ts). */
const market = (type: MarketType, runners: RunnerSpec[], options?: Parameters<typeof createMarket>[3]) => createMarket(db, type, runners, options);

const ODDS_RUNNERS: RunnerSpec[] = [
  { name: "Alpha", back: { price: 2.5, size: 1000 }, lay: { price: 2.52, size: 1000 } },
  { name: "Beta", back: { price: 1.6, size: 1000 }, lay: { price: 1.62, size: 1000 } },
];

async function place(user: Player, body: Record<string, unknown>) {
  return post<{ _id: string; balance: number; exposure: number }>("/api/user/bet", user.token, body);
}

async function placeOk(user: Player, body: Record<string, unknown>): Promise<string> {
  const reply = await place(user, body);
  if (reply.status !== "SUCCESS") throw new Error(`bet refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data!._id;
}

const balanceOf = async (id: bigint) => (await db.selectFrom("users").select("balance").where("id", "=", id).executeTakeFirstOrThrow()).balance;
const houseBalance = async () => (await db.selectFrom("admins").select("balance").where("id", "=", await houseId()).executeTakeFirstOrThrow()).balance;
const exposureBalance = async () =>
  (await db.selectFrom("system_accounts").select("balance").where("name", "=", BET_EXPOSURE).executeTakeFirstOrThrow()).balance;
const settle = (id: string, status: 1 | 2 | 3, token = tokens.admin) => post<SportsBet>("/settel-bet", token, { bet: { _id: id, amount: 1 }, status });
const settleMany = (body: unknown, token = tokens.admin) => post<{ results: unknown[] }>("/settle-bets", token, body);

describe("exposure and settlement arithmetic", () => {
  // [label, market, bet, exposure, winnings] in minor units, computed by hand from docs/protocol.md "Sports book".
  const cases: [string, MarketType, RunnerSpec[], { runner: string; isBack: 0 | 1; price: number; amount: number }, bigint, bigint][] = [
    // back 100 at 2.50: risks 100, wins 100 × 1.50 = 150
    ["back", "odds", ODDS_RUNNERS, { runner: "Alpha", isBack: 1, price: 2.5, amount: 100 }, 10_000n, 15_000n],
    // lay 100 at 2.52: risks 100 × 1.52 = 152, wins the stake 100
    ["lay", "odds", ODDS_RUNNERS, { runner: "Alpha", isBack: 0, price: 2.52, amount: 100 }, 15_200n, 10_000n],
    // bookmaker back 33.33 at 1.85: risks 33.33, wins 33.33 × 0.85 = 28.3305 → 28.33
    ["bookmaker back", "bookmaker", [{ name: "Alpha", back: { price: 1.85, size: null }, lay: { price: 1.9, size: null } }], { runner: "Alpha", isBack: 1, price: 1.85, amount: 33.33 }, 3_333n, 2_833n],
    // bookmaker lay 10.01 at 1.90: risks 10.01 × 0.90 = 9.009 → 9.01, wins 10.01
    ["bookmaker lay", "bookmaker", [{ name: "Alpha", back: { price: 1.85, size: null }, lay: { price: 1.9, size: null } }], { runner: "Alpha", isBack: 0, price: 1.9, amount: 10.01 }, 901n, 1_001n],
    // fancy yes 100 at line 51, rate 90: risks 100, wins 100 × 90 / 100 = 90
    ["fancy yes", "fancy", [{ name: "6 Over Runs Alpha", back: { price: 51, size: 90 }, lay: { price: 50, size: 110 } }], { runner: "6 Over Runs Alpha", isBack: 1, price: 51, amount: 100 }, 10_000n, 9_000n],
    // fancy no 100 at line 50, rate 110: risks 100 × 110 / 100 = 110, wins 100
    ["fancy no", "fancy", [{ name: "6 Over Runs Alpha", back: { price: 51, size: 90 }, lay: { price: 50, size: 110 } }], { runner: "6 Over Runs Alpha", isBack: 0, price: 50, amount: 100 }, 11_000n, 10_000n],
  ];

  for (const [label, type, runners, bet, exposure, winnings] of cases) {
    it(`${label}: reserves ${exposure} and settles each outcome`, async () => {
      const { eventId, marketId } = await market(type, runners);
      const user = await player(partnerA.id);
      const start = await balanceOf(user.id);
      const placed: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await place(user, { eventId, marketId, ...bet });
        expect(reply.status).toBe("SUCCESS");
        placed.push(reply.data!._id);
      }
      expect(await balanceOf(user.id)).toBe(start - 3n * exposure);
      const pending = await get<Page<SportsBet>>(`/sports-pending-bets?marketId=${marketId}`, tokens.admin);
      expect(pending.data!.items.map((row) => [row._id, row.exposure, row.type, row.status])).toEqual(
        placed.map((id) => [id, Number(exposure) / 100, type, "PENDING"]),
      );

      const house = await houseBalance();
      const won = await settle(placed[0]!, 1);
      expect(won.msg).toBe("Bet settled successfully!");
      expect(won.data).toMatchObject({ status: "SUCCESS", profit: Number(winnings) / 100, loss: 0 });
      expect(await balanceOf(user.id)).toBe(start - 2n * exposure + winnings);
      expect(await houseBalance()).toBe(house - winnings);

      const lost = await settle(placed[1]!, 2);
      expect(lost.data).toMatchObject({ status: "FAIL", profit: 0, loss: Number(exposure) / 100 });
      expect(await balanceOf(user.id)).toBe(start - 2n * exposure + winnings);
      expect(await houseBalance()).toBe(house - winnings + exposure);

      const voided = await settle(placed[2]!, 3);
      expect(voided.data).toMatchObject({ status: "ABANDONED", profit: 0, loss: 0 });
      expect(await balanceOf(user.id)).toBe(start - exposure + winnings);

      const results = await db.selectFrom("bet_results").select(["bet_id", "house_result", "game", "chain"]).where("bet_id", "in", placed.map(BigInt)).where("bet_kind", "=", "sports").orderBy("id").execute();
      expect(results.map((row) => row.house_result)).toEqual([-winnings, exposure, 0n]);
      expect(results[0]!.game).toBe(type === "odds" ? "cricket" : type);
      expect(results[0]!.chain).toEqual([{ id: String(partnerA.id), share: 50 }]);
    });
  }
});

describe("settling exactly once", () => {
  it("20 concurrent settlements of one bet settle it once", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const user = await player(partnerA.id);
    const id = await placeOk(user, { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    const before = await balanceOf(user.id);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => settle(id, 1, i % 2 ? tokens.admin : tokens.staffBets)));
    expect(replies.filter((reply) => reply.status === "SUCCESS")).toHaveLength(1);
    const refused = replies.filter((reply) => reply.status !== "SUCCESS");
    expect(refused.map((reply) => [reply.statusCode, reply.msg])).toEqual(Array(19).fill([409, "Bet already settled"]));
    expect(await balanceOf(user.id)).toBe(before + 10_000n + 15_000n);
    const transfers = await db.selectFrom("ledger_transfers").select("kind").where("remark", "=", `bet ${id}`).orderBy("id").execute();
    expect(transfers.map((row) => row.kind)).toEqual(["bet-place", "bet-settle", "bet-win"]);
  });

  it("answers each of many settlements sent at once on its own, and one that cannot be written holds back no other", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const bet = { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 };
    const users = await Promise.all(Array.from({ length: 4 }, () => player(partnerA.id)));
    const ids = [];
    for (const user of users) ids.push(await placeOk(user, bet), await placeOk(user, bet));
    const broken = await placeOk(users[1]!, bet);
    const settledBefore = await placeOk(users[0]!, bet);
    expect((await settle(settledBefore, 2)).statusCode).toBe(200);
    const balances = await Promise.all(users.map((user) => balanceOf(user.id)));
    const house = await houseBalance();
    // A fault the database raises while settling one bet, whichever batch it shares.
    await sql`create function fail_one_settlement() returns trigger language plpgsql as $$
      begin if new.id = ${sql.lit(Number(broken))} then raise exception 'disk full'; end if; return new; end $$`.execute(db);
    await sql`create trigger fail_one_settlement before update on sports_bets for each row execute function fail_one_settlement()`.execute(db);
    try {
      // Per user: one bet won (+25,000) and one voided (+10,000).
      const replies = await Promise.all([
        ...ids.map((id, i) => settle(id, i % 2 === 0 ? 1 : 3)),
        settle(broken, 1),
        settle(settledBefore, 1),
        settle("999999998", 1),
      ]);
      expect(replies.map((reply) => reply.statusCode)).toEqual([...ids.map(() => 200), 500, 409, 404]);
      expect(replies.slice(0, ids.length).map((reply) => reply.data!.status)).toEqual(ids.map((_, i) => (i % 2 === 0 ? "SUCCESS" : "ABANDONED")));
      // The same within one /settle-bets call: the bet at fault answers its own 500.
      const together = await settleMany({ settlements: [{ bet: { _id: broken }, status: 1 }, { bet: { _id: settledBefore }, status: 1 }] });
      expect(together.data!.results).toEqual([
        { _id: broken, code: 500, msg: WIRE_MESSAGE.fallback },
        { _id: settledBefore, code: 409, msg: "Bet already settled" },
      ]);
    } finally {
      await sql`drop trigger fail_one_settlement on sports_bets`.execute(db);
      await sql`drop function fail_one_settlement()`.execute(db);
    }
    expect(await Promise.all(users.map((user) => balanceOf(user.id)))).toEqual(balances.map((balance) => balance + 35_000n));
    expect(await houseBalance()).toBe(house - 4n * 15_000n);
    expect((await db.selectFrom("sports_bets").select("status").where("id", "=", BigInt(broken)).executeTakeFirstOrThrow()).status).toBe("PENDING");
    expect((await settle(broken, 1)).statusCode).toBe(200);
  });

  it("settles many bets in one /settle-bets call, each answered as its own /settel-bet would be, once however often it is sent", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const bet = { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 };
    const user = await player(partnerA.id);
    const [won, lost, voided, earlier] = [await placeOk(user, bet), await placeOk(user, bet), await placeOk(user, bet), await placeOk(user, bet)];
    expect((await settle(earlier!, 2)).statusCode).toBe(200);
    const before = { user: await balanceOf(user.id), house: await houseBalance() };
    const body = {
      settlements: [
        { bet: { _id: won, amount: 1 }, status: 1 },
        { bet: { _id: lost }, status: 2 },
        { bet: { _id: voided }, status: 3 },
        { bet: { _id: earlier }, status: 1 },
        { bet: { _id: "999999997" }, status: 1 },
      ],
    };
    // Sent three times at once: whichever call commits first settles the three, the others find every bet settled.
    const replies = await Promise.all([settleMany(body), settleMany(body, tokens.staffBets), settleMany(body)]);
    expect(replies.map((reply) => [reply.statusCode, reply.msg]).sort()).toEqual([
      [200, "0 of 5 bets settled"],
      [200, "0 of 5 bets settled"],
      [200, "3 of 5 bets settled"],
    ]);
    const first = replies.find((reply) => reply.msg === "3 of 5 bets settled")!;
    expect(first.data!.results).toEqual([
      { _id: won, code: 200, msg: "Bet settled successfully!" },
      { _id: lost, code: 200, msg: "Bet settled successfully!" },
      { _id: voided, code: 200, msg: "Bet settled successfully!" },
      { _id: earlier, code: 409, msg: "Bet already settled" },
      { _id: "999999997", code: 404, msg: "Bet not found" },
    ]);
    // Won: exposure 100 back + winnings 150; void: exposure 100 back; lost: the house keeps 100.
    expect(await balanceOf(user.id)).toBe(before.user + 25_000n + 10_000n);
    expect(await houseBalance()).toBe(before.house - 15_000n + 10_000n);
    const statuses = await db.selectFrom("sports_bets").select(["id", "status"]).where("id", "in", [won, lost, voided].map(BigInt)).orderBy("id").execute();
    expect(statuses.map((row) => row.status)).toEqual(["SUCCESS", "FAIL", "ABANDONED"]);
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });

  it("refuses a bad /settle-bets body whole, and anyone without the desk, settling nothing", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const id = await placeOk(await player(partnerA.id), { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    const one = { bet: { _id: id }, status: 1 };
    const refusals: [unknown, number, RegExp][] = [
      [{ settlements: [one, { bet: { _id: id }, status: 2 }] }, 400, new RegExp(`^settlements: bet ${id} is sent twice$`)],
      [{ settlements: [] }, 400, /settlements/],
      [{ settlements: Array.from({ length: 201 }, (_, i) => ({ bet: { _id: String(900_000_000 + i) }, status: 1 })) }, 400, /settlements/],
      [{ settlements: [one, { bet: { _id: "1" }, status: 4 }] }, 400, /status/],
      [{ settlements: [one, { bet: { _id: "abc" }, status: 1 }] }, 400, /_id/],
      [{ settlements: [one], extra: 1 }, 400, /extra|Unrecognized/],
      [{ settlements: one }, 400, /settlements/],
    ];
    for (const [body, statusCode, msg] of refusals) {
      const reply = await post("/settle-bets", tokens.admin, body);
      expect({ statusCode: reply.statusCode, data: reply.data }).toEqual({ statusCode, data: null });
      expect(reply.msg).toMatch(msg);
    }
    for (const token of [tokens.a, tokens.staffUsers]) expect((await post("/settle-bets", token, { settlements: [one] })).statusCode).toBe(403);
    expect((await db.selectFrom("sports_bets").select("status").where("id", "=", BigInt(id)).executeTakeFirstOrThrow()).status).toBe("PENDING");
  });

  it("answers 404 for an unknown bet and 400 for a bad status, changing nothing", async () => {
    expect((await settle("999999999", 1)).statusCode).toBe(404);
    const reply = await post("/settel-bet", tokens.admin, { bet: { _id: "1" }, status: 4 });
    expect(reply.statusCode).toBe(400);
    expect(reply.msg).toMatch(/status/);
  });
});

describe("placing exactly once", () => {
  it("places one bet per request id, however often and concurrently it is sent", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const user = await player(partnerA.id, 100_000n);
    const body = { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100, requestId: "tap-1" };
    const replies = await Promise.all(Array.from({ length: 5 }, () => place(user, body)));
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(replies.map((reply) => reply.data!._id)).size).toBe(1);
    expect(await balanceOf(user.id)).toBe(90_000n);
    expect((await place(user, body)).data).toEqual({ _id: replies[0]!.data!._id, balance: 900, exposure: 100 });
    const reused = await place(user, { ...body, amount: 50 });
    expect([reused.statusCode, reused.msg]).toEqual([409, "requestId was already used for another bet"]);
    expect(await balanceOf(user.id)).toBe(90_000n);
  });
});

describe("resettlement", () => {
  it("restores, then re-applies exactly, and is audited", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const user = await player(partnerA.id);
    const start = await balanceOf(user.id);
    const house = await houseBalance();
    const id = await placeOk(user, { eventId, marketId, runner: "Alpha", isBack: 0, price: 2.52, amount: 100 });
    await settle(id, 1); // lay won: +100
    expect(await balanceOf(user.id)).toBe(start + 10_000n);

    const lost = await post<SportsBet>("/resettle-bet", tokens.admin, { bet: { _id: id }, status: 2 });
    expect(lost.status).toBe("SUCCESS");
    expect(lost.data).toMatchObject({ status: "FAIL", profit: 0, loss: 152 });
    expect(await balanceOf(user.id)).toBe(start - 15_200n);
    expect(await houseBalance()).toBe(house + 15_200n);

    const voided = await post<SportsBet>("/resettle-bet", tokens.admin, { bet: { _id: id }, status: 3 });
    expect(voided.data).toMatchObject({ status: "ABANDONED", profit: 0, loss: 0 });
    expect(await balanceOf(user.id)).toBe(start);
    expect(await houseBalance()).toBe(house);

    const audit = await db.selectFrom("bet_resettlements").select(["before_status", "after_status", "before_profit", "after_loss"]).where("bet_id", "=", BigInt(id)).orderBy("id").execute();
    expect(audit).toEqual([
      { before_status: "SUCCESS", after_status: "FAIL", before_profit: 10_000n, after_loss: 15_200n },
      { before_status: "FAIL", after_status: "ABANDONED", before_profit: 0n, after_loss: 0n },
    ]);
    const results = await db.selectFrom("bet_results").select("house_result").where("bet_id", "=", BigInt(id)).where("bet_kind", "=", "sports").execute();
    expect(results.reduce((sum, row) => sum + row.house_result, 0n)).toBe(0n);
  });

  it("10 concurrent resettlements to one outcome apply it once", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const user = await player(partnerA.id);
    const start = await balanceOf(user.id);
    const id = await placeOk(user, { eventId, marketId, runner: "Alpha", isBack: 0, price: 2.52, amount: 100 });
    await settle(id, 1); // lay won: +100
    const replies = await Promise.all(Array.from({ length: 10 }, () => post("/resettle-bet", tokens.admin, { bet: { _id: id }, status: 2 })));
    expect(replies.filter((reply) => reply.status === "SUCCESS")).toHaveLength(1);
    const refused = replies.filter((reply) => reply.status !== "SUCCESS");
    expect(refused.map((reply) => [reply.statusCode, reply.msg])).toEqual(Array(9).fill([409, "Bet already has that result"]));
    expect(await balanceOf(user.id)).toBe(start - 15_200n);
    const audit = await db.selectFrom("bet_resettlements").select("id").where("bet_id", "=", BigInt(id)).execute();
    expect(audit).toHaveLength(1);
  });

  it("is for the super admin alone, refuses a pending bet and a reversal the balance cannot cover", async () => {
    const { eventId, marketId } = await market("odds", ODDS_RUNNERS);
    const user = await player(partnerA.id, 10_000n);
    const id = await placeOk(user, { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 });
    expect((await post("/resettle-bet", tokens.admin, { bet: { _id: id }, status: 2 })).statusCode).toBe(409);
    await settle(id, 1); // balance 250
    expect((await post("/resettle-bet", tokens.staffBets, { bet: { _id: id }, status: 2 })).statusCode).toBe(403);
    await db.updateTable("users").set({ balance: 0n }).where("id", "=", user.id).execute();
    try {
      const reply = await post("/resettle-bet", tokens.admin, { bet: { _id: id }, status: 2 });
      expect([reply.statusCode, reply.msg]).toEqual([409, "The user's balance cannot cover the reversal"]);
      expect((await db.selectFrom("sports_bets").select("status").where("id", "=", BigInt(id)).executeTakeFirstOrThrow()).status).toBe("SUCCESS");
    } finally {
      await db.updateTable("users").set({ balance: 25_000n }).where("id", "=", user.id).execute();
    }
  });
});

describe("placement refusals reserve nothing", () => {
  it("refuses for each switch, flag, closed market and stale price", async () => {
    const odds = await market("odds", ODDS_RUNNERS);
    const suspended = await market("odds", ODDS_RUNNERS, { status: "SUSPENDED" });
    const closed = await market("odds", ODDS_RUNNERS, { status: "CLOSED" });
    const user = await player(partnerA.id, 100_000n);
    const good = { eventId: odds.eventId, marketId: odds.marketId, runner: "Alpha", isBack: 1, price: 2.5, amount: 100 };
    const count = async () => Number((await db.selectFrom("sports_bets").select((eb) => eb.fn.countAll<bigint>().as("n")).where("user_id", "=", user.id).executeTakeFirstOrThrow()).n);

    const expectRefused = async (body: Record<string, unknown>, statusCode: number, msg: RegExp) => {
      const reply = await place(user, body);
      expect([reply.statusCode, reply.msg]).toEqual([statusCode, expect.stringMatching(msg)]);
      expect(await balanceOf(user.id)).toBe(100_000n);
      expect(await count()).toBe(0);
    };
    await expectRefused({ ...good, price: 2.48 }, 409, /no longer on offer/);
    await expectRefused({ ...good, isBack: 0, price: 2.5 }, 409, /no longer on offer/);
    await expectRefused({ ...good, eventId: suspended.eventId, marketId: suspended.marketId }, 409, /not open/);
    await expectRefused({ ...good, eventId: closed.eventId, marketId: closed.marketId }, 409, /not open/);
    await expectRefused({ ...good, runner: "Gamma" }, 404, /not found/);
    await expectRefused({ ...good, eventId: closed.eventId }, 404, /another event/);
    await expectRefused({ ...good, amount: 1000.01 }, 409, /Insufficient balance/);
    await expectRefused({ ...good, amount: 0 }, 400, /amount/i);
    await expectRefused({ ...good, price: 2.505 }, 400, /price/);
    await expectRefused({ ...good, extra: 1 }, 400, /extra|Unrecognized/);

    await db.updateTable("users").set({ permissions: JSON.stringify({ football: true }) }).where("id", "=", user.id).execute();
    await expectRefused(good, 403, /cricket is not enabled/);
    await db.updateTable("users").set({ permissions: JSON.stringify({ cricket: true }), bet_enabled: false }).where("id", "=", user.id).execute();
    await expectRefused(good, 403, /Betting is disabled/);
    await db.updateTable("users").set({ bet_enabled: true, login_enabled: false }).where("id", "=", user.id).execute();
    await expectRefused(good, 401, /User not found/);
    await db.updateTable("users").set({ login_enabled: true }).where("id", "=", user.id).execute();

    // Winnings past the ceiling (1,000,000,000): 2,000,000 at 1000 would win 1,998,000,000.
    const longShot = await market("odds", [{ name: "Alpha", back: { price: 1000, size: 1000 }, lay: null }, ODDS_RUNNERS[1]!]);
    const whale = await player(partnerA.id, 200_000_000n);
    const tooLarge = await place(whale, { ...good, eventId: longShot.eventId, marketId: longShot.marketId, price: 1000, amount: 2_000_000 });
    expect([tooLarge.statusCode, tooLarge.msg]).toEqual([400, "Amount too large"]);
    expect(await balanceOf(whale.id)).toBe(200_000_000n);

    const runnerSuspended = await market("odds", [{ ...ODDS_RUNNERS[0]!, status: "SUSPENDED" }, ODDS_RUNNERS[1]!]);
    await expectRefused({ ...good, eventId: runnerSuspended.eventId, marketId: runnerSuspended.marketId }, 409, /not open/);
    expect((await place(user, good)).status).toBe("SUCCESS");
  });

  it("plays one casino round once, however many times it is sent at once", async () => {
    const user = await player(partnerA.id, 100_000n);
    const round = { providerCode: "EVO", gameCode: "roulette", roundId: "RACE-1", amount: 10 };
    const replies = await Promise.all(Array.from({ length: 5 }, () => post<{ bet: CasinoBet; balance: number }>("/api/user/casino-bet", user.token, round)));
    const played = replies.filter((reply) => reply.status === "SUCCESS");
    expect(played).toHaveLength(1);
    expect(replies.filter((reply) => reply.status !== "SUCCESS").map((reply) => reply.statusCode)).toEqual(Array(4).fill(409));
    expect(BigInt(Math.round(played[0]!.data!.balance * 100))).toBe(await balanceOf(user.id));
    expect([99_000n, 101_000n]).toContain(await balanceOf(user.id));
  });

  it("refuses casino and game bets without the casino flag, and a replayed round", async () => {
    const user = await player(partnerA.id, 100_000n);
    const casino = { providerCode: "EVO", gameCode: "=cmd|' /C calc'!A0", roundId: "R-1", amount: 10 };
    const first = await post<{ bet: CasinoBet; balance: number }>("/api/user/casino-bet", user.token, casino);
    expect(first.status).toBe("SUCCESS");
    const after = first.data!.bet.status === "SUCCESS" ? 1010 : 990;
    expect(first.data!.balance).toBe(after);
    const replay = await post("/api/user/casino-bet", user.token, casino);
    expect([replay.statusCode, replay.msg]).toEqual([409, "roundId: that round was already played"]);
    const game = await post<{ bet: GameBet; balance: number }>("/api/user/game-bet", user.token, { gameId: "teen20", roundId: "R-1", runnerName: "Player A", amount: 5 });
    expect(game.data!.bet).toMatchObject({ gameId: "teen20", runnerName: "Player A", amount: 5 });
    // Twice the stake would pass the ceiling: refused whatever the draw.
    const huge = await post("/api/user/casino-bet", user.token, { ...casino, roundId: "R-HUGE", amount: 600_000_000 });
    expect([huge.statusCode, huge.msg]).toEqual([400, "Amount too large"]);

    await db.updateTable("users").set({ permissions: JSON.stringify({ cricket: true }) }).where("id", "=", user.id).execute();
    const refused = await post("/api/user/casino-bet", user.token, { ...casino, roundId: "R-2" });
    expect([refused.statusCode, refused.msg]).toEqual([403, "casino is not enabled for this account"]);
    expect((await balanceOf(user.id)) * 1n).toBe(BigInt(Math.round(game.data!.balance * 100)));
  });
});

describe("the desk's lists, history and scoping", () => {
  let underB: Player, underC: Player, ids: string[], eventId: string, marketId: string;

  beforeAll(async () => {
    ({ eventId, marketId } = await market("odds", ODDS_RUNNERS, { sport: 1 }));
    underB = await player(partnerB.id);
    underC = await player(partnerC.id);
    ids = [];
    for (const user of [underB, underC, underB]) ids.push(await placeOk(user, { eventId, marketId, runner: "Beta", isBack: 1, price: 1.6, amount: 50 }));
    await post("/api/user/casino-bet", underB.token, { providerCode: "+EVO", gameCode: "roulette", roundId: "H-1", amount: 20 });
  });

  it("lists pending bets oldest first, filtered by event, market, user and sport", async () => {
    const byEvent = await get<Page<SportsBet>>(`/sports-pending-bets?eventId=${eventId}`, tokens.staffBets);
    expect(byEvent.data!.items.map((row) => row._id)).toEqual(ids);
    expect(byEvent.data!.total).toBe(3);
    expect(byEvent.data!.items[0]).toMatchObject({ sport: 1, sportName: "football", event: "Alpha v Beta", username: underB.username, isBack: 1, x: 1.6, odds: 1.6 });
    const byUser = await get<Page<SportsBet>>(`/sports-pending-bets?marketId=${marketId}&user=${underC.id}`, tokens.admin);
    expect(byUser.data!.items.map((row) => row._id)).toEqual([ids[1]]);
    const bySport = await get<Page<SportsBet>>(`/sports-pending-bets?sport=football&eventId=${eventId}&pageSize=1&page=2`, tokens.admin);
    expect(bySport.data).toMatchObject({ total: 3, page: 2, pageSize: 1, items: [{ _id: ids[1] }] });
    expect((await get(`/sports-pending-bets?sport=golf`, tokens.admin)).statusCode).toBe(400);
    expect((await get(`/sports-pending-bets?color=red`, tokens.admin)).statusCode).toBe(400);
  });

  it("keeps settling and the queue for the super admin and staff with bets", async () => {
    for (const token of [tokens.a, tokens.staffUsers]) {
      expect((await get(`/sports-pending-bets`, token)).statusCode).toBe(403);
      expect((await settle(ids[0]!, 1, token)).statusCode).toBe(403);
    }
    expect((await db.selectFrom("sports_bets").select("status").where("id", "=", BigInt(ids[0]!)).executeTakeFirstOrThrow()).status).toBe("PENDING");
  });

  it("shows a user's bets, profit and download to partners above the user only", async () => {
    await settle(ids[0]!, 1);
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    for (const token of [tokens.admin, tokens.staffBets, tokens.a, tokens.b]) {
      const sports = await get<Page<SportsBet>>(`/user-bets?user=${underB.id}&type=0&from=${today}&to=${today}`, token);
      expect(sports.data!.items.map((row) => row._id)).toEqual([ids[2], ids[0]]);
    }
    for (const token of [tokens.c, tokens.staffUsers]) {
      expect((await get(`/user-bets?user=${underB.id}&type=0`, token)).statusCode).toBe(403);
      expect((await get(`/b2c/user-profit/${underB.id}`, token)).statusCode).toBe(403);
      expect((await get(`/download-bets?user=${underB.id}&type=0`, token)).statusCode).toBe(403);
    }
    const casino = await get<Page<CasinoBet>>(`/user-bets?user=${underB.id}&type=1`, tokens.a);
    expect(casino.data!.items).toMatchObject([{ providerCode: "+EVO", gameCode: "roulette", roundId: "H-1", amount: 20 }]);
    expect((await get<Page<GameBet>>(`/user-bets?user=${underB.id}&type=2`, tokens.a)).data!.total).toBe(0);
    const yesterday = new Date(Date.now() + 330 * 60_000 - 86_400_000).toISOString().slice(0, 10);
    expect((await get<Page<SportsBet>>(`/user-bets?user=${underB.id}&type=0&from=${yesterday}&to=${yesterday}`, tokens.a)).data!.total).toBe(0);
    expect((await get(`/user-bets?user=${underB.id}&type=0&from=2026-13-01`, tokens.a)).statusCode).toBe(400);

    const casinoBet = casino.data!.items[0]!;
    const profit = await get<UserProfit>(`/b2c/user-profit/${underB.id}`, tokens.b);
    // The won back bet: 50 × 0.60 = 30, plus the casino result.
    expect(profit.data).toEqual({ profit: 30 + casinoBet.profit - casinoBet.loss, balance: Number(await balanceOf(underB.id)) / 100 });

    const csv = await app.inject({ method: "GET", url: `/api/admin/download-bets?user=${underB.id}&type=1`, headers: { authorization: `Bearer ${tokens.a}` } });
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.body.split("\r\n")[0]).toBe("Bet ID,Provider Code,Game Code,Round ID,Price,Placed Date,Status,Profit/Loss");
    expect(csv.body).toContain(`,'+EVO,roulette,H-1,20.00,`);
    const sportsCsv = await app.inject({ method: "GET", url: `/api/admin/download-bets?user=${underB.id}&type=0`, headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(sportsCsv.body.trim().split("\r\n")).toHaveLength(3);
  });
});

describe("sports data and the scorecard page", () => {
  it("lists a sport's events in play first and serves a framable scorecard", async () => {
    const { eventId } = await market("odds", ODDS_RUNNERS, { sport: 2 });
    const events = await call<{ eventId: string; inplay: boolean }[]>(app, "GET", "/api/sports/matches/tennis", { token: tokens.admin });
    expect(events.data!.some((event) => event.eventId === eventId)).toBe(true);
    expect(events.data![0]!.inplay).toBe(true);
    expect((await call(app, "GET", "/api/sports/matches/tennis")).statusCode).toBe(401);
    const page = await app.inject({ method: "GET", url: `/api/scorecard-page/${eventId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/frame-ancestors 'self' http:\/\/localhost:3000/);
    expect(page.body).toContain("Alpha v Beta");
  });
});

describe("the ledger invariant", () => {
  it("holds after 1,000 seeded-random bets placed, settled by market and partly resettled", async () => {
    const random = mulberry32(20_261_121);
    const markets = [
      await market("odds", ODDS_RUNNERS),
      await market("bookmaker", [
        { name: "Alpha", back: { price: 1.85, size: null }, lay: { price: 1.9, size: null } },
        { name: "Beta", back: { price: 2.1, size: null }, lay: { price: 2.14, size: null } },
      ]),
      await market("fancy", [{ name: "10 Over Runs Alpha", back: { price: 81, size: 100 }, lay: { price: 80, size: 100 } }]),
    ];
    const [marketOdds, marketBook, marketFancy] = markets;
    const users = [];
    for (let i = 0; i < 10; i++) users.push(await player(i % 2 ? partnerB.id : partnerC.id, 5_000_000n));
    const bets: { id: string; marketId: string; runner: string; isBack: boolean }[] = [];
    for (let i = 0; i < 1000; i++) {
      const m = markets[Math.floor(random() * 3)]!;
      const runner = m === marketFancy ? "10 Over Runs Alpha" : random() < 0.5 ? "Alpha" : "Beta";
      const spec = m === marketOdds ? ODDS_RUNNERS : m === marketBook ? null : null;
      const isBack = random() < 0.6;
      const price =
        m === marketFancy ? (isBack ? 81 : 80) : spec ? (spec.find((r) => r.name === runner)![isBack ? "back" : "lay"]!.price) : runner === "Alpha" ? (isBack ? 1.85 : 1.9) : isBack ? 2.1 : 2.14;
      const amount = 1 + Math.floor(random() * 20_000) / 100;
      const id = await placeOk(users[Math.floor(random() * users.length)]!, { eventId: m.eventId, marketId: m.marketId, runner, isBack: isBack ? 1 : 0, price, amount });
      bets.push({ id, marketId: m.marketId, runner, isBack });
    }
    // Settle by market as the console's Settle market… does against an API without `/settle-bets`:
    // SETTLE_CONCURRENCY calls at once, which the platform writes together (group commit), every
    // outcome mixed in a batch. Alpha wins; the innings ends on 85.
    const outcomes = bets.map((bet) => {
      const backWins = bet.marketId === marketFancy!.marketId ? 85 >= 81 : bet.runner === "Alpha";
      return { id: bet.id, status: bet.marketId === marketOdds!.marketId && random() < 0.05 ? 3 : backWins === bet.isBack ? 1 : 2 } as const;
    });
    const replies = await inBatches(outcomes, SETTLE_CONCURRENCY, ({ id, status }) => settle(id, status));
    for (const reply of replies) expect(reply.status).toBe("SUCCESS");
    for (const bet of bets.filter(() => random() < 0.1)) {
      const reply = await post("/resettle-bet", tokens.admin, { bet: { _id: bet.id }, status: 3 });
      expect([200, 409]).toContain(reply.statusCode);
    }
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
    const pendingExposure = await db
      .selectFrom("sports_bets")
      .select((eb) => eb.fn.sum<string>("exposure").as("total"))
      .where("status", "=", "PENDING")
      .executeTakeFirstOrThrow();
    expect(await exposureBalance()).toBe(BigInt(pendingExposure.total ?? "0"));
    // The queue's kept counts, stake and exposure match the rows.
    const counted = await db
      .selectFrom("sports_bets")
      .select((eb) => [eb.fn.countAll<bigint>().as("n"), sql<bigint>`coalesce(sum(amount), 0)::bigint`.as("stake"), sql<bigint>`coalesce(sum(exposure), 0)::bigint`.as("exposure")])
      .where("status", "=", "PENDING")
      .executeTakeFirstOrThrow();
    const kept = await db.selectFrom("sports_pending_counts").select(["n", "stake", "exposure"]).where("key", "=", "all").executeTakeFirstOrThrow();
    expect([kept.n, kept.stake, kept.exposure].map(String)).toEqual([counted.n, counted.stake, counted.exposure].map(String));
  }, 300_000);
});
