/**
 * The integration tests' way in: one migrated, seeded database per worker (PGlite in
 * memory, or the PostgreSQL schema the integration-pg project provides), apps built on
 * it, and a client that speaks the envelope like the console does.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { expect, inject } from "vitest";
import { open, seal } from "../../../protocol/envelope.js";
import { GAME_FLAGS, type WireResponse } from "../../../protocol/wire.js";
import { ADMIN_API_PREFIX, buildApp } from "../../../platform/app.js";
import { openDb, type Db } from "../../../platform/db/index.js";
import { migrate } from "../../../platform/db/migrate.js";
import type { FeedStatus, Flags, MarketType } from "../../../platform/db/schema.js";
import { seedIfEmpty } from "../../../platform/seed.js";
import { loadEnv, type Env } from "../../../platform/env.js";
import type { LogTarget } from "../../../platform/plugins/logging.js";
import { recordOpenings } from "../../../platform/modules/ledger/service.js";
import { createFeedStore } from "../../../platform/modules/sports/repository.js";
import { LEAST_HASH_COST } from "../../../platform/security/password.js";
import { createRevealer, storePassword } from "../../../platform/security/reveal.js";

export const TEST_SECRET = "integration-test-secret";

let shared: Promise<Db> | undefined;

/** The worker's database, created, migrated and seeded on first use. */
export function testDb(): Promise<Db> {
  shared ??= (async () => {
    const postgres = inject("postgres");
    const db = await openDb(postgres ? { kind: "postgres", ...postgres } : { kind: "pglite", dataDir: null });
    await migrate(db);
    await seedIfEmpty(db, createRevealer(testEnv()));
    return db;
  })();
  return shared;
}

/** The platform's settings in these tests: passwords hashed at the least cost (docs/operations.md "Password hashing"). */
export function testEnv(overrides: Partial<Env> = {}): Env {
  return { ...loadEnv({ NODE_ENV: "test", API_SECRET: TEST_SECRET, PASSWORD_HASH_COST: String(LEAST_HASH_COST) }), ...overrides };
}

export async function testApp(overrides: Partial<Env> = {}, logger?: LogTarget): Promise<FastifyInstance> {
  return buildApp({ db: await testDb(), env: testEnv(overrides), logger });
}

export type CallOptions = {
  /** Sealed into `{payload}` for a POST. */
  body?: unknown;
  /** Sent as the raw JSON body instead of sealing `body` (malformed envelopes). */
  rawBody?: string | object;
  token?: string;
  /** The client address, passed as X-Forwarded-For from loopback like the console does. */
  ip?: string;
  headers?: Record<string, string>;
};

export type CallResult<T> = {
  statusCode: number;
  status: WireResponse["status"];
  msg: string;
  /** The opened `data` on SUCCESS, null on FAIL. */
  data: T | null;
  /** The `data` text as received. */
  sealed: string | null;
};

/** Calls the admin API: `path` is relative to /api/admin unless it starts with /api/. */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: "GET" | "POST",
  path: string,
  { body, rawBody, token, ip, headers = {} }: CallOptions = {},
): Promise<CallResult<T>> {
  const url = path.startsWith("/api/") ? path : `${ADMIN_API_PREFIX}${path}`;
  const response = await app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(ip ? { "x-forwarded-for": ip } : {}),
      ...headers,
    },
    ...(method === "POST" ? { payload: rawBody !== undefined ? rawBody : { payload: seal(body ?? {}, TEST_SECRET) } } : {}),
  });
  const reply = response.json<WireResponse>();
  return {
    statusCode: response.statusCode,
    status: reply.status,
    msg: reply.msg,
    data: reply.status === "SUCCESS" ? (open(reply.data, TEST_SECRET) as T) : null,
    sealed: reply.data,
  };
}

/** Signs in and returns the token; fails the test when the sign-in is refused. */
export async function login(app: FastifyInstance, username: string, password: string, ip?: string): Promise<string> {
  const reply = await call<{ token: string }>(app, "POST", "/login", { body: { username, password }, ip });
  if (reply.status !== "SUCCESS" || !reply.data) throw new Error(`login ${username} refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data.token;
}

let ipCount = 0;
/** A client address no other test uses, so per-IP sign-in limits never cross tests. */
export function freshIp(): string {
  ipCount += 1;
  return `10.${(ipCount >> 16) & 255}.${(ipCount >> 8) & 255}.${ipCount & 255}`;
}

export type TestAdmin = { id: bigint; username: string; password: string };

/** The super admin: the house every opening balance comes from. */
export async function houseId(): Promise<bigint> {
  const db = await testDb();
  const row = await db.selectFrom("admins").select("id").where("role", "=", 1).orderBy("id").executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A throwaway admin that a test may change at will without touching the demo accounts.
 * A partner sits under `parent` (default: the super admin) with the top role unless told,
 * and every share at 50; its balance comes from an opening transfer, as the ledger requires.
 */
export async function createAdmin(
  options: { role?: 1 | 2 | 3; permissions?: Flags; balance?: bigint; parent?: bigint; partnerRoleLevel?: number } = {},
): Promise<TestAdmin> {
  const db = await testDb();
  const username = `t_${randomUUID().slice(0, 12)}`;
  const password = `pw-${randomUUID()}`;
  const role = options.role ?? 2;
  const house = await houseId();
  const partnerRole =
    role === 3
      ? await db
          .selectFrom("partner_roles")
          .select("id")
          .where("level", "=", options.partnerRoleLevel ?? 1)
          .executeTakeFirstOrThrow()
      : undefined;
  const stored = await storePassword(password, createRevealer(testEnv()));
  const balance = options.balance ?? 0n;
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("admins")
      .values({
        username,
        password_hash: stored.hash,
        password_sealed: stored.sealed,
        role,
        permissions: JSON.stringify(options.permissions ?? {}),
        partner_role_id: partnerRole?.id ?? null,
        parent_id: role === 1 ? null : (options.parent ?? house),
        share: JSON.stringify(role === 3 ? Object.fromEntries(GAME_FLAGS.map((flag) => [flag, 50])) : {}),
        balance,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordOpenings(trx, house, [{ kind: "admin", id: row.id, balance }]);
    return row.id;
  });
  return { id, username, password };
}

export type TestUser = { id: bigint; username: string; password: string };

/** A throwaway end user under `parent`, its balance from an opening transfer. */
export async function createUser(parent: bigint, balance = 0n): Promise<TestUser> {
  const db = await testDb();
  const username = `u_${randomUUID().slice(0, 12)}`;
  const password = `pw-${randomUUID()}`;
  const stored = await storePassword(password, createRevealer(testEnv()));
  const house = await houseId();
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("users")
      .values({
        username,
        password_hash: stored.hash,
        password_sealed: stored.sealed,
        parent_id: parent,
        balance,
        permissions: JSON.stringify({}),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordOpenings(trx, house, [{ kind: "user", id: row.id, balance }]);
    return row.id;
  });
  return { id, username, password };
}

/** `count` end users under `parent` with no balance, inserted by one statement and sharing one password (a file of hundreds of accounts). */
export async function createUsers(parent: bigint, count: number): Promise<TestUser[]> {
  const db = await testDb();
  const password = `pw-${randomUUID()}`;
  const stored = await storePassword(password, createRevealer(testEnv()));
  const rows = await db
    .insertInto("users")
    .values(
      Array.from({ length: count }, () => ({
        username: `u_${randomUUID().slice(0, 12)}`,
        password_hash: stored.hash,
        password_sealed: stored.sealed,
        parent_id: parent,
        balance: 0n,
        permissions: JSON.stringify({}),
      })),
    )
    .returning(["id", "username"])
    .execute();
  return rows.map((row) => ({ ...row, password }));
}

/** An end user under `parent` holding `balance` minor units and every game flag, signed in to the end-user API: one who may bet. */
export async function createBettor(app: FastifyInstance, parent: bigint, balance = 1_000_000n): Promise<TestUser & { token: string }> {
  const user = await createUser(parent, balance);
  const db = await testDb();
  await db
    .updateTable("users")
    .set({ permissions: JSON.stringify(Object.fromEntries(GAME_FLAGS.map((flag) => [flag, true]))) })
    .where("id", "=", user.id)
    .execute();
  return signInPlayer(app, user);
}

async function signInPlayer(app: FastifyInstance, user: TestUser): Promise<TestUser & { token: string }> {
  const reply = await call<{ token: string }>(app, "POST", "/api/user/login", {
    body: { username: user.username, password: user.password },
    ip: freshIp(),
  });
  if (!reply.data) throw new Error(`player login refused: ${reply.statusCode} ${reply.msg}`);
  return { ...user, token: reply.data.token };
}

/** An end user under `parent` with `balance` minor units, signed in to the end-user API. */
export async function createPlayer(app: FastifyInstance, parent: bigint, balance = 0n): Promise<TestUser & { token: string }> {
  return signInPlayer(app, await createUser(parent, balance));
}

/** Row counts of what a refused call must leave untouched, plus every balance. */
export async function footprint() {
  const db = await testDb();
  const count = async (
    table: "users" | "admins" | "ledger_entries" | "ledger_transfers" | "audit_log" | "login_logs" | "deposit_requests" | "withdraw_requests",
  ) => {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const balances = async (table: "users" | "admins") =>
    (await db.selectFrom(table).select(["id", "balance"]).orderBy("id").execute()).map((row) => `${row.id}:${row.balance}`).join(",");
  return {
    users: await count("users"),
    admins: await count("admins"),
    entries: await count("ledger_entries"),
    transfers: await count("ledger_transfers"),
    audit: await count("audit_log"),
    logins: await count("login_logs"),
    deposits: await count("deposit_requests"),
    withdraws: await count("withdraw_requests"),
    decided: (
      await sql<{ n: string }>`select (select count(*) from deposit_requests where status <> 0)
        + (select count(*) from withdraw_requests where status <> 0) as n`.execute(db)
    ).rows[0]?.n,
    userBalances: await balances("users"),
    adminBalances: await balances("admins"),
  };
}

/** Accounts whose balance differs from the sum of their entries, and transfers that do not sum to zero. */
export async function ledgerBreaches() {
  const db = await testDb();
  const accounts = await sql<{ kind: string; id: string }>`
    select 'user' as kind, u.id::text as id from users u
      left join (select account_id, sum(amount) as total from ledger_entries where account_kind = 'user' group by account_id) e
        on e.account_id = u.id
     where u.balance <> coalesce(e.total, 0)
    union all
    select 'admin', a.id::text from admins a
      left join (select account_id, sum(amount) as total from ledger_entries where account_kind = 'admin' group by account_id) e
        on e.account_id = a.id
     where a.balance <> coalesce(e.total, 0)
    union all
    select 'system', s.id::text from system_accounts s
      left join (select account_id, sum(amount) as total from ledger_entries where account_kind = 'system' group by account_id) e
        on e.account_id = s.id
     where s.balance <> coalesce(e.total, 0)`.execute(db);
  const transfers = await sql<{ id: string }>`
    select transfer_id::text as id from ledger_entries group by transfer_id having sum(amount) <> 0`.execute(db);
  return { accounts: accounts.rows, transfers: transfers.rows };
}

/** Sends a call that must be refused: it answers `expected`, and `state` reads the same after as before. */
export async function expectRefused(
  state: () => Promise<unknown>,
  send: () => Promise<CallResult<unknown>>,
  expected: { statusCode: number; msg: string },
): Promise<void> {
  const before = await state();
  const reply = await send();
  expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual(expected);
  expect(await state()).toEqual(before);
}

type Quote = { price: number; size: number | null } | null;
export type RunnerSpec = { name: string; back: Quote; lay: Quote; status?: FeedStatus };

/** A fresh event with one market of `type`, written through the feed store as a provider would. */
export async function createMarket(db: Db, type: MarketType, runners: RunnerSpec[], { sport = 0 as 0 | 1 | 2, status = "OPEN" as FeedStatus } = {}) {
  const store = createFeedStore(db);
  const eventId = `T${randomUUID().slice(0, 8)}`;
  const marketId = `${eventId}-${type}`;
  await store.putEvent({ eventId, sport, teamA: "Alpha", teamB: "Beta", startTime: new Date(), inplay: true, status: "OPEN", score: [] });
  await store.putMarket({
    marketId,
    eventId,
    type,
    name: type === "fancy" ? runners[0]!.name : "Match Odds",
    heading: type === "fancy" ? "Session" : null,
    status,
    runners: runners.map((runner) => ({ status: "ACTIVE", ...runner })),
  });
  return { eventId, marketId, store };
}

/**
 * `count` pending bets of `amount` each on a fresh odds market, placed by one new bettor through
 * the end-user API, as a settlement job's items name them.
 */
export async function placePendingBets(app: FastifyInstance, count: number, amount = 100) {
  const { eventId, marketId } = await createMarket(await testDb(), "odds", [{ name: "Alpha", back: { price: 2, size: 1_000_000 }, lay: { price: 2.02, size: 1_000_000 } }]);
  const bettor = await createBettor(app, await houseId());
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await call<{ _id: string }>(app, "POST", "/api/user/bet", {
      token: bettor.token,
      body: { eventId, marketId, runner: "Alpha", isBack: 1, price: 2, amount },
    });
    if (!reply.data) throw new Error(`bet refused: ${reply.statusCode} ${reply.msg}`);
    ids.push(reply.data._id);
  }
  return { eventId, marketId, bettor, ids };
}
