import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { createClient } from "redis";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REALTIME_EVENTS, type NewRequestEvent } from "../../protocol/wire.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { createFeedStore } from "../../platform/modules/sports/repository.js";
import { call, createAdmin, createUser, freshIp, login, testApp, testDb, type TestAdmin } from "./support/platform.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis server answers at REDIS_URL (the two-instance test needs one). */
async function redisAnswers(): Promise<boolean> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 500, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    await client.quit();
    return true;
  } catch {
    return false;
  }
}
const withRedis = await redisAnswers();

const apps: FastifyInstance[] = [];
const sockets: Socket[] = [];

/** An app listening on an ephemeral loopback port, closed after the file. */
async function listening(overrides: Parameters<typeof testApp>[0] = {}): Promise<{ app: FastifyInstance; url: string }> {
  const app = await testApp(overrides);
  apps.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (typeof address !== "object" || !address) throw new Error("no address");
  return { app, url: `http://127.0.0.1:${address.port}` };
}

/** A socket that records every request event it receives; resolves once connected or refused. */
async function connect(url: string, token?: string) {
  const socket = io(url, { auth: token ? { token } : {}, transports: ["websocket"], reconnection: false });
  sockets.push(socket);
  const received: [string, NewRequestEvent][] = [];
  for (const event of Object.values(REALTIME_EVENTS)) socket.on(event, (payload: NewRequestEvent) => received.push([event, payload]));
  const outcome = await new Promise<string>((resolve) => {
    socket.on("connect", () => resolve("connected"));
    socket.on("connect_error", (error) => resolve(error.message));
  });
  return { outcome, received };
}

const until = async (check: () => boolean, ms = 3000) => {
  for (const start = Date.now(); !check(); ) {
    if (Date.now() - start > ms) throw new Error("timed out waiting for an event");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await Promise.all(apps.map((app) => app.close()));
});

let partner: TestAdmin, outsider: TestAdmin;
beforeAll(async () => {
  partner = await createAdmin({ role: 3 });
  outsider = await createAdmin({ role: 3 });
});

async function requestAs(app: FastifyInstance, parent: bigint, kind: "deposit" | "withdraw") {
  const user = await createUser(parent, 100_000n);
  const signIn = await call<{ token: string }>(app, "POST", "/api/user/login", {
    body: { username: user.username, password: user.password },
    ip: freshIp(),
  });
  const body =
    kind === "deposit"
      ? { amount: 12.5, type: 0, utr: `UTR-${randomUUID()}` }
      : { amount: 12.5, bank: { holder: "A", bank: "B", accNo: "12345678", ifsc: "HDFC0001234", branch: "C" } };
  const reply = await call<{ _id: string }>(app, "POST", `/api/user/${kind}-request`, { token: signIn.data!.token, body });
  return { _id: reply.data!._id, username: user.username, amount: 12.5 };
}

/** `count` bets of a partner's user on a new open market, placed through `app`. */
async function betsOnNewMarket(app: FastifyInstance, count: number) {
  const db = await testDb();
  const eventId = `RT${randomUUID().slice(0, 8)}`;
  const store = createFeedStore(db);
  await store.putEvent({ eventId, sport: 1, teamA: "A", teamB: "B", startTime: new Date(), inplay: true, status: "OPEN", score: [] });
  const runners = [{ name: "A", status: "ACTIVE" as const, back: { price: 2, size: 100 }, lay: { price: 2.02, size: 100 } }];
  await store.putMarket({ marketId: `${eventId}-MO`, eventId, type: "odds", name: "Match Odds", heading: null, status: "OPEN", runners });
  const user = await createUser(partner.id, 100_000n);
  await db.updateTable("users").set({ permissions: JSON.stringify({ football: true }) }).where("id", "=", user.id).execute();
  const player = await call<{ token: string }>(app, "POST", "/api/user/login", { body: { username: user.username, password: user.password }, ip: freshIp() });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const bet = { eventId, marketId: `${eventId}-MO`, runner: "A", isBack: 1, price: 2, amount: 10 };
    ids.push((await call<{ _id: string }>(app, "POST", "/api/user/bet", { token: player.data!.token, body: bet })).data!._id);
  }
  return { eventId, ids };
}

describe("realtime", () => {
  it("reaches permitted admins only, and no socket without a live admin session", async () => {
    const { app, url } = await listening();
    const token = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
    const superAdmin = await connect(url, await token(DEMO_ACCOUNTS.admin));
    const own = await connect(url, await token(partner));
    const other = await connect(url, await token(outsider));
    const depositsOnly = await connect(url, await token(await createAdmin({ role: 2, permissions: { deposits: true } })));
    const anonymous = await connect(url);
    const forged = await connect(url, "not-a-token");
    const signedOutToken = await token(DEMO_ACCOUNTS.admin);
    const signedOut = await connect(url, signedOutToken);
    expect([superAdmin, own, other, depositsOnly, signedOut].map((socket) => socket.outcome)).toEqual(Array(5).fill("connected"));
    // A session that ends stops receiving at once, though its socket is still open.
    expect(await call(app, "POST", "/logout", { token: signedOutToken })).toMatchObject({ statusCode: 200 });
    expect([anonymous.outcome, forged.outcome]).toEqual(["Admin not found", "Admin not found"]);

    const deposit = await requestAs(app, partner.id, "deposit");
    const withdraw = await requestAs(app, partner.id, "withdraw");
    await until(() => superAdmin.received.length === 2 && own.received.length === 2 && depositsOnly.received.length === 1);
    expect(superAdmin.received).toEqual([
      [REALTIME_EVENTS.newDeposit, deposit],
      [REALTIME_EVENTS.newWithdraw, withdraw],
    ]);
    expect(own.received).toEqual(superAdmin.received);
    expect(depositsOnly.received).toEqual([[REALTIME_EVENTS.newDeposit, deposit]]);
    // Give stray events the time the permitted ones took, and more.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([other.received, anonymous.received, forged.received, signedOut.received]).toEqual([[], [], [], []]);
  });

  it.skipIf(!withRedis)("carries an event from one instance to a socket on another through Redis", async () => {
    const shared = { REDIS_URL, REDIS_PREFIX: `betdesk-test-${randomUUID()}` };
    const one = await listening(shared);
    const two = await listening(shared);
    const admin = await connect(two.url, await login(two.app, partner.username, partner.password, freshIp()));
    expect(admin.outcome).toBe("connected");

    const deposit = await requestAs(one.app, partner.id, "deposit");
    await until(() => admin.received.length === 1);
    expect(admin.received).toEqual([[REALTIME_EVENTS.newDeposit, deposit]]);
  });

  it.skipIf(!withRedis)("carries a settlement on an instance with no socket of its own to the house desk on another", async () => {
    const shared = { REDIS_URL, REDIS_PREFIX: `betdesk-test-${randomUUID()}` };
    const one = await listening(shared);
    const two = await listening(shared);
    const desk = await connect(two.url, await login(two.app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp()));
    const { eventId, ids } = await betsOnNewMarket(one.app, 1);
    const adminToken = await login(one.app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
    await call(one.app, "POST", "/settel-bet", { token: adminToken, body: { bet: { _id: ids[0] }, status: 2 } });
    await until(() => desk.received.some(([event]) => event === REALTIME_EVENTS.betSettled));
    expect(desk.received.filter(([event]) => event === REALTIME_EVENTS.betSettled)).toEqual([[REALTIME_EVENTS.betSettled, { _id: ids[0], eventId }]]);
  });
});

describe("realtime: the sports book", () => {
  it("tells the house desk of settlements, and it and partners of market updates at most once a second per event", async () => {
    const { app, url } = await listening();
    const token = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
    const adminToken = await token(DEMO_ACCOUNTS.admin);
    const desk = await connect(url, await token(await createAdmin({ role: 2, permissions: { bets: true } })));
    const depositsOnly = await connect(url, await token(await createAdmin({ role: 2, permissions: { deposits: true } })));
    const own = await connect(url, await token(partner));

    const { eventId, ids } = await betsOnNewMarket(app, 3);
    for (const id of ids) await call(app, "POST", "/settel-bet", { token: adminToken, body: { bet: { _id: id }, status: 2 } });

    const settled = () => desk.received.filter(([event]) => event === REALTIME_EVENTS.betSettled);
    const updates = () => desk.received.filter(([event]) => event === REALTIME_EVENTS.marketUpdate);
    await until(() => settled().length === 3 && updates().length === 2, 5000);
    expect(settled().map(([, payload]) => payload)).toEqual(ids.map((_id) => ({ _id, eventId })));
    // Six placements and settlements in well under two seconds: one update at once, one folded at the second's end.
    expect(updates().map(([, payload]) => payload)).toEqual([{ eventId }, { eventId }]);
    // A partner reloads its own book on the market updates; bet ids stay with the house desk.
    await until(() => own.received.length === 2);
    expect(own.received).toEqual(updates());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(depositsOnly.received).toEqual([]);
  });
});
