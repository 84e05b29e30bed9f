import CryptoJS from "crypto-js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminRecord } from "../../protocol/wire.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import type { Db } from "../../platform/db/index.js";
import { LOGIN_LIMITS } from "../../platform/modules/auth/service.js";
import { call, createAdmin, freshIp, login, TEST_SECRET, testApp, testDb } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
});
afterAll(() => app.close());

/** Sessions and login-log rows of an admin: what a refused sign-in must leave untouched. */
async function footprint(adminId: bigint) {
  const count = async (table: "admin_sessions" | "login_logs", column: "admin_id" | "account_id") =>
    (await db.selectFrom(table).select("id").where(column, "=", adminId).execute()).length;
  return { sessions: await count("admin_sessions", "admin_id"), logins: await count("login_logs", "account_id") };
}

describe("POST /login", () => {
  it("answers a token that works for /b2c/admin, in data crypto-js can open", async () => {
    const ip = freshIp();
    const reply = await call<{ token: string }>(app, "POST", "/login", {
      body: DEMO_ACCOUNTS.admin,
      ip,
      headers: { "user-agent": "vitest-agent" },
    });
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS" });

    // The console's side of the contract: crypto-js decrypts what the platform sealed.
    const opened = JSON.parse(CryptoJS.AES.decrypt(reply.sealed!, TEST_SECRET).toString(CryptoJS.enc.Utf8));
    expect(opened).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    const me = await call<AdminRecord>(app, "GET", "/b2c/admin", { token: opened.token });
    expect(me.data).toMatchObject({ username: "admin", role: 1 });

    const log = await db
      .selectFrom("login_logs")
      .selectAll()
      .where("account_kind", "=", "admin")
      .where("ip", "=", ip)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ account_id: BigInt(me.data!._id), user_agent: "vitest-agent" });
  });

  it("accepts the username in any case", async () => {
    await expect(login(app, "ADMIN", DEMO_ACCOUNTS.admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });

  it("stores only a hash of the token", async () => {
    const token = await login(app, DEMO_ACCOUNTS.staff.username, DEMO_ACCOUNTS.staff.password, freshIp());
    const stored = await db.selectFrom("admin_sessions").select("token_hash").where("token_hash", "=", token).execute();
    expect(stored).toEqual([]);
  });

  it("refuses a wrong password and an unknown user alike, 401, changing nothing", async () => {
    const admin = await createAdmin();
    const before = await footprint(admin.id);

    const wrong = await call(app, "POST", "/login", { body: { username: admin.username, password: "nope-nope" }, ip: freshIp() });
    const unknown = await call(app, "POST", "/login", { body: { username: "nobody-here", password: "nope-nope" }, ip: freshIp() });

    for (const reply of [wrong, unknown]) {
      expect(reply).toEqual({ statusCode: 401, status: "FAIL", msg: "Invalid username or password", data: null, sealed: null });
    }
    expect(await footprint(admin.id)).toEqual(before);
  });

  it("names the missing field", async () => {
    const reply = await call(app, "POST", "/login", { body: { username: "admin" }, ip: freshIp() });
    expect(reply).toMatchObject({ statusCode: 400, status: "FAIL", msg: expect.stringContaining("password") });
  });

  it("limits failures per username and IP, refusing even the right password meanwhile", async () => {
    const admin = await createAdmin();
    const ip = freshIp();
    for (let attempt = 0; attempt < LOGIN_LIMITS.perAccount.limit; attempt++) {
      const reply = await call(app, "POST", "/login", { body: { username: admin.username, password: "wrong-password" }, ip });
      expect(reply.statusCode).toBe(401);
    }
    const limited = await call(app, "POST", "/login", { body: { username: admin.username, password: admin.password }, ip });
    expect(limited).toMatchObject({ statusCode: 429, status: "FAIL", msg: expect.stringMatching(/wait/i), data: null });
    expect((await footprint(admin.id)).sessions).toBe(0);

    // Another address is not held back by this one's failures.
    await expect(login(app, admin.username, admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });

  it("limits failures per IP across usernames", async () => {
    const ip = freshIp();
    for (let attempt = 0; attempt < LOGIN_LIMITS.perIp.limit; attempt++) {
      await call(app, "POST", "/login", { body: { username: `spray-${attempt}`, password: "x" }, ip });
    }
    const limited = await call(app, "POST", "/login", { body: DEMO_ACCOUNTS.admin, ip });
    expect(limited.statusCode).toBe(429);
  });

  it("clears the username+IP count on success", async () => {
    const admin = await createAdmin();
    const ip = freshIp();
    const fail = () => call(app, "POST", "/login", { body: { username: admin.username, password: "wrong-password" }, ip });
    const belowLimit = LOGIN_LIMITS.perAccount.limit - 1;
    for (let attempt = 0; attempt < belowLimit; attempt++) await fail();
    await login(app, admin.username, admin.password, ip);
    for (let attempt = 0; attempt < belowLimit; attempt++) expect((await fail()).statusCode).toBe(401);
    await expect(login(app, admin.username, admin.password, ip)).resolves.toEqual(expect.any(String));
  });
});

describe("POST /login under NODE_ENV=production", () => {
  let production: FastifyInstance;
  beforeAll(async () => {
    production = await testApp({ NODE_ENV: "production" });
  });
  afterAll(() => production.close());

  it("refuses the seeded demo passwords", async () => {
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const reply = await call(production, "POST", "/login", { body: account, ip: freshIp() });
      expect(reply).toMatchObject({ statusCode: 401, msg: "Invalid username or password" });
    }
  });

  it("accepts an account whose password was chosen", async () => {
    const admin = await createAdmin();
    await expect(login(production, admin.username, admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });
});

describe("PASSWORD_HASH_COST", () => {
  let raised: FastifyInstance;
  beforeAll(async () => {
    raised = await testApp({ PASSWORD_HASH_COST: 11 });
  });
  afterAll(() => raised.close());

  const costOf = async (adminId: bigint) =>
    (await db.selectFrom("admins").select("password_hash").where("id", "=", adminId).executeTakeFirstOrThrow()).password_hash.split("$")[1];

  it("hashes a changed password at the platform's cost and still signs in with one hashed at another", async () => {
    const admin = await createAdmin();
    expect(await costOf(admin.id)).toBe(String(2 ** 10));
    const ip = freshIp();
    const token = await login(raised, admin.username, admin.password, ip);
    const changed = await call(raised, "POST", "/change-password", { body: { curPassword: admin.password, password: "chosen-again-1" }, token, ip });
    expect(changed).toMatchObject({ statusCode: 200, status: "SUCCESS" });
    expect(await costOf(admin.id)).toBe(String(2 ** 11));
    await expect(login(raised, admin.username, "chosen-again-1", freshIp())).resolves.toEqual(expect.any(String));
  });
});
