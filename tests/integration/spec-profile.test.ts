/**
 * PLATFORM_PROFILE=spec answers like an operator's API with only the spec's calls (docs/product.md §7.2),
 * through HTTP: extension calls 404 as unknown routes do, query parameters and body fields the
 * spec does not name are ignored, reports carry no `daily`, realtime sends only new-deposit and
 * new-withdraw. And in either profile the platform serves exactly the calls of protocol/calls.ts.
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALL_LIST, CALLS, REALTIME_MARKS, type CallEntry } from "../../protocol/calls.js";
import { PAGE_SIZE, REALTIME_EVENTS, type Page, type ReportV1, type ReportV2, type SportsBet, type TransferResult } from "../../protocol/wire.js";
import { ADMIN_API_PREFIX } from "../../platform/app.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { createFeedStore } from "../../platform/modules/sports/repository.js";
import envelope from "../../platform/plugins/envelope.js";
import profile from "../../platform/plugins/profile.js";
import { SPORTS_API_PREFIX } from "../../platform/modules/sports/routes.js";
import { call, createBettor, createUser, freshIp, houseId, login, testApp, testDb, TEST_SECRET } from "./support/platform.js";

const PREFIXES = { admin: ADMIN_API_PREFIX, sports: SPORTS_API_PREFIX };
const urlOf = (entry: CallEntry) => `${PREFIXES[entry.api]}${entry.path}`;
/** A call's URL with every `:param` filled. */
const filled = (entry: CallEntry) => urlOf(entry).replace(/:[A-Za-z]+/g, "1");

let full: FastifyInstance, spec: FastifyInstance;
let fullToken: string, specToken: string;
const signIn = (app: FastifyInstance) => login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
beforeAll(async () => {
  [full, spec] = await Promise.all([testApp(), testApp({ PLATFORM_PROFILE: "spec" })]);
  [fullToken, specToken] = await Promise.all([signIn(full), signIn(spec)]);
});
afterAll(async () => {
  await Promise.all([full.close(), spec.close()]);
});

describe("the platform serves protocol/calls.ts", () => {
  it("serves every call of the table at its method and path", async () => {
    await full.ready();
    const missing = CALL_LIST.filter((entry) => !full.hasRoute({ method: entry.method, url: urlOf(entry) }));
    expect(missing.map((entry) => entry.name)).toEqual([]);
  });

  it("refuses to start with a route under an API prefix that the table lacks", async () => {
    const app = Fastify();
    app.register(envelope, { secret: TEST_SECRET });
    app.register(profile, { name: "full", prefixes: PREFIXES });
    app.register(async (api) => api.get("/not-in-the-table", async () => null), { prefix: ADMIN_API_PREFIX });
    await expect(app.ready()).rejects.toThrow("GET /api/admin/not-in-the-table is not a call of protocol/calls.ts");
  });
});

describe("PLATFORM_PROFILE=spec", () => {
  it("answers every extension call as an unknown route, token or not", async () => {
    const unknown = await call(spec, "GET", "/no-such-call", { token: specToken });
    expect(unknown).toMatchObject({ statusCode: 404, msg: "Not found" });
    const extensions = CALL_LIST.filter((entry) => entry.mark === "extension");
    expect(extensions.map((entry) => entry.name)).toEqual(expect.arrayContaining(["logout", "resettleBet", "settleBets", "bonusLimits", "removeSlider"]));
    for (const entry of extensions) {
      for (const token of [specToken, undefined]) {
        const reply = await call(spec, entry.method, filled(entry), { token, body: {} });
        expect({ call: entry.name, statusCode: reply.statusCode, msg: reply.msg }).toEqual({ call: entry.name, statusCode: 404, msg: unknown.msg });
      }
    }
    // The full profile serves them: the logout ends the session, as a spec API never would.
    expect(await call(full, "POST", CALLS.logout.path, { token: await signIn(full), body: {} })).toMatchObject({ statusCode: 200 });
  });

  it("ignores the pending queue's filters and pageSize: the first page of the whole book, 50 bets", async () => {
    const db = await testDb();
    const store = createFeedStore(db);
    const bettor = await createBettor(full, await houseId());
    const events: string[] = [];
    for (const side of ["A", "B"]) {
      const eventId = `SP${side}${randomUUID().slice(0, 6)}`;
      events.push(eventId);
      await store.putEvent({ eventId, sport: 1, teamA: "A", teamB: "B", startTime: new Date(), inplay: true, status: "OPEN", score: [] });
      const runners = [{ name: "A", status: "ACTIVE" as const, back: { price: 2, size: 100 }, lay: { price: 2.02, size: 100 } }];
      await store.putMarket({ marketId: `${eventId}-MO`, eventId, type: "odds", name: "Match Odds", heading: null, status: "OPEN", runners });
      for (let i = 0; i < 3; i++) {
        const bet = { eventId, marketId: `${eventId}-MO`, runner: "A", isBack: 1, price: 2, amount: 10 };
        expect(await call(full, "POST", "/api/user/bet", { token: bettor.token, body: bet })).toMatchObject({ statusCode: 200 });
      }
    }
    const filtered = `${CALLS.pendingBets.path}?page=1&pageSize=20&eventId=${events[0]}`;
    const narrowed = await call<Page<SportsBet>>(full, "GET", filtered, { token: fullToken });
    expect(narrowed.data).toMatchObject({ total: 3, pageSize: 20 });
    expect(new Set(narrowed.data!.items.map((bet) => bet.eventId))).toEqual(new Set([events[0]]));

    const ignored = await call<Page<SportsBet>>(spec, "GET", filtered, { token: specToken });
    const whole = await call<Page<SportsBet>>(spec, "GET", `${CALLS.pendingBets.path}?page=1`, { token: specToken });
    expect(ignored.data).toEqual(whole.data);
    expect(ignored.data!.pageSize).toBe(PAGE_SIZE.default);
    expect(ignored.data!.total).toBeGreaterThanOrEqual(6);
  });

  it("ignores query parameters nobody names, where the full profile refuses them", async () => {
    const path = `${CALLS.pendingBets.path}?page=1&bogus=1`;
    expect(await call(full, "GET", path, { token: fullToken })).toMatchObject({ statusCode: 400 });
    expect(await call(spec, "GET", path, { token: specToken })).toMatchObject({ statusCode: 200 });
  });

  it("keeps the query parameters the spec names", async () => {
    const path = `${CALLS.users.path}?username=${DEMO_ACCOUNTS.admin.username.slice(0, 3)}zzz-nobody&pageSize=1`;
    const reply = await call<Page<unknown>>(spec, "GET", path, { token: specToken });
    expect(reply.data).toMatchObject({ items: [], total: 0, pageSize: PAGE_SIZE.default });
  });

  it("ignores requestId: a money call sent twice moves the money twice", async () => {
    for (const [app, token, moves] of [
      [full, fullToken, 1],
      [spec, specToken, 2],
    ] as const) {
      const user = await createUser(await houseId());
      const body = { amount: 10, user: String(user.id), isPartner: false, requestId: `spec-${randomUUID()}` };
      let balance = 0;
      for (let i = 0; i < 2; i++) balance = (await call<TransferResult>(app, "POST", CALLS.userDeposit.path, { token, body })).data!.balance;
      expect({ profile: app.profile.name, balance }).toEqual({ profile: app.profile.name, balance: 10 * moves });
    }
  });

  it("answers reports without daily", async () => {
    for (const path of [CALLS.reportV1.path, CALLS.reportV2.path]) {
      const withDaily = await call<ReportV1 | ReportV2>(full, "GET", path, { token: fullToken });
      const without = await call<ReportV1 | ReportV2>(spec, "GET", path, { token: specToken });
      expect(withDaily.data).toHaveProperty("daily");
      expect(without.data).not.toHaveProperty("daily");
      const { daily: _daily, ...rest } = withDaily.data!;
      expect(without.data).toEqual(rest);
    }
  });

  it("sends only new-deposit and new-withdraw", async () => {
    expect(Object.values(REALTIME_EVENTS).filter((event) => spec.profile.emits(event))).toEqual(
      Object.values(REALTIME_EVENTS).filter((event) => REALTIME_MARKS[event] === "spec"),
    );
    await spec.listen({ host: "127.0.0.1", port: 0 });
    const address = spec.server.address();
    if (typeof address !== "object" || !address) throw new Error("no address");
    const socket = io(`http://127.0.0.1:${address.port}`, { auth: { token: specToken }, transports: ["websocket"], reconnection: false });
    try {
      const received: string[] = [];
      socket.onAny((event: string) => received.push(event));
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));

      const deposited = async () => {
        const user = await createUser(await houseId(), 100_000n);
        const signIn = await call<{ token: string }>(spec, "POST", "/api/user/login", { body: { username: user.username, password: user.password }, ip: freshIp() });
        const arrived = new Promise((resolve) => socket.once(REALTIME_EVENTS.newDeposit, resolve));
        const body = { amount: 12.5, type: 0, utr: `UTR-${randomUUID()}` };
        expect(await call(spec, "POST", "/api/user/deposit-request", { token: signIn.data!.token, body })).toMatchObject({ statusCode: 200 });
        await arrived;
      };
      spec.realtime.book.betSettled({ _id: "1", eventId: "E1" });
      spec.realtime.book.marketUpdate("E1");
      // Two spec events delivered after the book's: any book event would have arrived by then.
      await deposited();
      await deposited();
      expect(received).toEqual([REALTIME_EVENTS.newDeposit, REALTIME_EVENTS.newDeposit]);
    } finally {
      socket.close();
    }
  });
});
