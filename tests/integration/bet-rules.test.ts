/**
 * Issue 15's money defects, each reproduced: a casino draw a player could predict, a stake
 * whose exposure rounded to nothing (500), winnings rounded in the player's favour, and reports
 * that went wrong after a resettlement out of void; then a property over random chains of
 * settlements and resettlements: every report equals a recomputation from the bets' outcomes.
 */
import { createHash, createHmac } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_FLAGS, type CasinoBet, type GameFlag, type ReportV1, type ReportV2, type SportsBet, type UserProfit } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import type { Fairness } from "../../platform/modules/bets/casino-draw.js";
import {
  call,
  createAdmin,
  createBettor,
  createMarket,
  footprint,
  freshIp,
  ledgerBreaches,
  login,
  testApp,
  testDb,
} from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let adminToken: string;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  const admin = await createAdmin({ role: 1 });
  adminToken = await login(app, admin.username, admin.password, freshIp());
});
afterAll(() => app.close());

const PRICES = [
  { name: "Alpha", back: { price: 2.11, size: 1000 }, lay: { price: 1.32, size: 1000 } },
  { name: "Beta", back: { price: 1.57, size: 1000 }, lay: { price: 1.6, size: 1000 } },
];

/** A partner with `share` % of every game, a sub-panel with `subShare` %, and a bettor under the sub-panel. */
async function subtree(share: number, subShare: number) {
  const shares = (percent: number) => JSON.stringify(Object.fromEntries(GAME_FLAGS.map((game) => [game, percent])));
  const partner = await createAdmin({ role: 3 });
  const sub = await createAdmin({ role: 3, parent: partner.id, partnerRoleLevel: 2 });
  await db.updateTable("admins").set({ share: shares(share) }).where("id", "=", partner.id).execute();
  await db.updateTable("admins").set({ share: shares(subShare) }).where("id", "=", sub.id).execute();
  const bettor = await createBettor(app, sub.id, 100_000_000n);
  return { partner, sub, bettor };
}

const bet = (token: string, body: Record<string, unknown>) => call<{ _id: string }>(app, "POST", "/api/user/bet", { token, body });
const settle = (id: string, status: 1 | 2 | 3) => call<SportsBet>(app, "POST", "/settel-bet", { token: adminToken, body: { bet: { _id: id }, status } });
const resettle = (id: string, status: 1 | 2 | 3) => call<SportsBet>(app, "POST", "/resettle-bet", { token: adminToken, body: { bet: { _id: id }, status } });

describe("the casino draw is keyed by a server seed no player knows", () => {
  /** The old draw, from public data only: what a player could compute before placing a round. */
  const publicDraw = (message: string) => createHash("sha256").update(message).digest().readUInt32BE(0) / 2 ** 32;

  it("a player who posts only the rounds public data calls winners wins no more than chance allows", async () => {
    const { bettor } = await subtree(50, 25);
    const chosen: string[] = [];
    for (let i = 0; chosen.length < 300; i++) {
      const roundId = `pick-${i}`;
      if (publicDraw(`${bettor.id}:1:ROULETTE:${roundId}`) < 0.475) chosen.push(roundId);
    }
    let wins = 0;
    for (const roundId of chosen) {
      const reply = await call<{ bet: CasinoBet }>(app, "POST", "/api/user/casino-bet", {
        token: bettor.token,
        body: { providerCode: "EVO", gameCode: "ROULETTE", roundId, amount: 1 },
      });
      expect(reply.statusCode).toBe(200);
      if (reply.data!.bet.status === "SUCCESS") wins += 1;
    }
    // Before the fix every chosen round won (300 of 300). With the seed the wins are Binomial(300, 0.475):
    // mean 142.5, sd 8.65; the bounds sit 5 sd away, so a fair draw fails this about once in 3 million runs.
    expect(wins).toBeGreaterThan(99);
    expect(wins).toBeLessThan(186);
  });

  it("publishes the seed's hash before its rounds and reveals the seed after rotation, so every draw can be checked", async () => {
    // A seed that draws for no time at all: the next round retires and reveals it.
    const rotating = await testApp({ CASINO_SEED_HOURS: 0 });
    try {
      const { bettor } = await subtree(50, 25);
      const fairness = () => call<Fairness>(rotating, "GET", "/api/user/casino-seeds", { token: bettor.token });
      const play = (roundId: string) =>
        call<{ bet: CasinoBet; seedHash: string }>(rotating, "POST", "/api/user/casino-bet", {
          token: bettor.token,
          body: { providerCode: "EVO", gameCode: "CRASH", roundId, amount: 2 },
        });
      const first = await play("fair-1");
      expect(first.statusCode).toBe(200);
      const published = first.data!.seedHash;
      expect(published).toMatch(/^[0-9a-f]{64}$/);
      // The seed is secret while it draws: only its hash is listed.
      const before = (await fairness()).data!;
      expect(before.revealed.some((seed) => seed.seedHash === published)).toBe(false);

      const second = await play("fair-2");
      expect(second.data!.seedHash).not.toBe(published);
      const after = (await fairness()).data!;
      const revealed = after.revealed.find((seed) => seed.seedHash === published);
      expect(revealed).toBeDefined();
      expect(createHash("sha256").update(revealed!.seed).digest("hex")).toBe(published);
      // The player recomputes its round from the revealed seed and gets the outcome it was given.
      const draw = createHmac("sha256", revealed!.seed).update(`${bettor.id}:1:CRASH:fair-1`).digest().readUInt32BE(0) / 2 ** 32;
      expect(first.data!.bet.status).toBe(draw < 0.475 ? "SUCCESS" : "FAIL");
    } finally {
      await rotating.close();
    }
  });
});

describe("stakes and rounding", () => {
  it("a stake below the minimum is 400 `Amount too small` and changes nothing, sports, casino and game alike", async () => {
    const { bettor } = await subtree(50, 25);
    const { eventId, marketId } = await createMarket(db, "odds", PRICES);
    const before = await footprint();
    // lay 0.01 at 1.32: an exposure of 0.0032, which answered 500 from inside the ledger.
    const layed = await bet(bettor.token, { eventId, marketId, runner: "Alpha", isBack: 0, price: 1.32, amount: 0.01 });
    expect([layed.statusCode, layed.msg]).toEqual([400, "Amount too small"]);
    const backed = await bet(bettor.token, { eventId, marketId, runner: "Beta", isBack: 1, price: 1.57, amount: 0.99 });
    expect([backed.statusCode, backed.msg]).toEqual([400, "Amount too small"]);
    const casino = await call(app, "POST", "/api/user/casino-bet", { token: bettor.token, body: { providerCode: "EVO", gameCode: "X", roundId: "small", amount: 0.5 } });
    expect([casino.statusCode, casino.msg]).toEqual([400, "Amount too small"]);
    const game = await call(app, "POST", "/api/user/game-bet", { token: bettor.token, body: { gameId: "X", runnerName: "A", roundId: "small", amount: 0.5 } });
    expect([game.statusCode, game.msg]).toEqual([400, "Amount too small"]);
    expect(await footprint()).toEqual(before);
  });

  it("rounds in the house's favour: winnings down, the lay's exposure up", async () => {
    const { bettor } = await subtree(50, 25);
    const { eventId, marketId } = await createMarket(db, "odds", PRICES);
    // back 1.01 at 1.57 wins 0.5757: paid 0.57, never 0.58
    const back = await bet(bettor.token, { eventId, marketId, runner: "Beta", isBack: 1, price: 1.57, amount: 1.01 });
    expect((await settle(back.data!._id, 1)).data).toMatchObject({ status: "SUCCESS", profit: 0.57 });
    // lay 1.01 at 1.32 risks 0.3232: reserves and loses 0.33, never 0.32
    const lay = await bet(bettor.token, { eventId, marketId, runner: "Alpha", isBack: 0, price: 1.32, amount: 1.01 });
    expect((await settle(lay.data!._id, 2)).data).toMatchObject({ status: "FAIL", exposure: 0.33, loss: 0.33 });
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });
});

describe("reports after resettlements", () => {
  const report = <T>(version: "v1" | "v2", token: string, query: Record<string, string> = {}) =>
    call<T>(app, "GET", `${version === "v1" ? "/b2c/report" : "/report"}?${new URLSearchParams(query)}`, { token });
  const houseMyShare = async (game: GameFlag) => (await report<ReportV2>("v2", adminToken)).data!.myShare![game];

  it("back 100 @ 2.11: won, then void, then lost, reports +100 for the house's book and −100 for the user", async () => {
    const { partner, bettor } = await subtree(80, 60);
    const { eventId, marketId } = await createMarket(db, "odds", PRICES);
    const placed = await bet(bettor.token, { eventId, marketId, runner: "Alpha", isBack: 1, price: 2.11, amount: 100 });
    const houseBefore = await houseMyShare("cricket");
    expect((await settle(placed.data!._id, 1)).statusCode).toBe(200);
    expect((await resettle(placed.data!._id, 3)).statusCode).toBe(200);
    expect((await resettle(placed.data!._id, 2)).statusCode).toBe(200);

    const partnerToken = await login(app, partner.username, partner.password, freshIp());
    // The whole subtree's book: +100 (it showed −11 when the third step reversed the wrong row).
    const book = await report<ReportV1>("v1", adminToken, { user: String(partner.id), type: "partner" });
    expect(book.data!.profit.cricket).toBe(100);
    // The partner keeps 80 − 60 = 20 %, the house 100 − 80 = 20 %.
    expect((await report<ReportV2>("v2", partnerToken)).data!.myShare!.cricket).toBe(20);
    expect((await houseMyShare("cricket")) - houseBefore).toBeCloseTo(20, 2);
    const profit = await call<UserProfit>(app, "GET", `/b2c/user-profit/${bettor.id}`, { token: adminToken });
    expect(profit.data!.profit).toBe(-100);
  });

  it("property: after any chain of settlements and resettlements every report equals a recomputation from the bets", async () => {
    const SHARE = 70;
    const SUB_SHARE = 30;
    const { partner, sub, bettor } = await subtree(SHARE, SUB_SHARE);
    const partnerToken = await login(app, partner.username, partner.password, freshIp());
    const subToken = await login(app, sub.username, sub.password, freshIp());
    /** Every figure a chain moves: the subtree's book, each share, and the user's profit. */
    const figures = async () => ({
      book: (await report<ReportV1>("v1", adminToken, { user: String(partner.id), type: "partner" })).data!.profit.cricket,
      partner: (await report<ReportV2>("v2", partnerToken)).data!.myShare!.cricket,
      sub: (await report<ReportV2>("v2", subToken)).data!.myShare!.cricket,
      house: await houseMyShare("cricket"),
      user: -(await call<UserProfit>(app, "GET", `/b2c/user-profit/${bettor.id}`, { token: adminToken })).data!.profit,
    });
    const step = fc.constantFrom<1 | 2 | 3>(1, 2, 3);
    const bets = fc.array(fc.record({ runner: fc.constantFrom("Alpha", "Beta"), amount: fc.integer({ min: 1, max: 500 }), chain: fc.array(step, { minLength: 1, maxLength: 5 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(bets, async (bets) => {
        const { eventId, marketId } = await createMarket(db, "odds", PRICES);
        const before = await figures();
        let book = 0;
        for (const { runner, amount, chain } of bets) {
          const price = runner === "Alpha" ? 2.11 : 1.57;
          const placed = await bet(bettor.token, { eventId, marketId, runner, isBack: 1, price, amount });
          expect(placed.statusCode).toBe(200);
          const id = placed.data!._id;
          let current: 1 | 2 | 3 | undefined;
          for (const status of chain) {
            if (current === undefined) expect((await settle(id, status)).statusCode).toBe(200);
            else if (status !== current) expect((await resettle(id, status)).statusCode).toBe(200);
            current = status;
          }
          // The house's result of the bet's current outcome, read from the bet itself.
          const rows = (await call<{ items: SportsBet[] }>(app, "GET", `/user-bets?user=${bettor.id}&type=0&pageSize=500`, { token: adminToken })).data!.items;
          const settled = rows.find((row) => row._id === id)!;
          expect(settled.status).toBe({ 1: "SUCCESS", 2: "FAIL", 3: "ABANDONED" }[current!]);
          book += settled.loss - settled.profit;
        }
        const after = await figures();
        // Figures travel rounded to the paisa, so a difference of two may be a paisa off an exact share.
        const moved = (key: keyof typeof before, expected: number) => expect(Math.abs(after[key] - before[key] - expected), key).toBeLessThanOrEqual(0.010001);
        moved("book", book);
        moved("user", book);
        moved("partner", (book * (SHARE - SUB_SHARE)) / 100);
        moved("sub", (book * SUB_SHARE) / 100);
        moved("house", (book * (100 - SHARE)) / 100);
      }),
      { seed: 15, numRuns: 15 },
    );
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  }, 300_000);
});
