import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_FLAGS, STAFF_FLAGS, type AdminRecord } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { call, createAdmin, freshIp, login, testApp, testDb } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
});
afterAll(() => app.close());

const me = (token: string) => call<AdminRecord>(app, "GET", "/b2c/admin", { token });
const isLoggedOut = (token: string, udid: string) => call<boolean>(app, "GET", `/is-logouted/${udid}`, { token });

const flags = (on: readonly string[]) =>
  Object.fromEntries([...GAME_FLAGS, ...STAFF_FLAGS].map((flag) => [flag, on.includes(flag)]));

describe("GET /b2c/admin", () => {
  it.each([
    ["admin", DEMO_ACCOUNTS.admin, 1, "unlimited", flags([...GAME_FLAGS, ...STAFF_FLAGS])],
    ["staff", DEMO_ACCOUNTS.staff, 2, 0, flags(["deposits", "withdraws"])],
    ["panel1", DEMO_ACCOUNTS.partner, 3, 100_000, flags(GAME_FLAGS)],
  ] as const)("describes %s", async (username, account, role, balance, permissions) => {
    const token = await login(app, account.username, account.password, freshIp());
    const reply = await me(token);
    expect(reply.statusCode).toBe(200);
    expect(reply.data).toEqual({
      _id: expect.stringMatching(/^\d+$/),
      udid: expect.any(String),
      username,
      role,
      balance,
      permissions: expect.any(String),
    });
    expect(JSON.parse(reply.data!.permissions)).toEqual(permissions);
  });

  it("shows a partner balance with its 2 decimals", async () => {
    const partner = await createAdmin({ role: 3, balance: 1_234_567n });
    const reply = await me(await login(app, partner.username, partner.password, freshIp()));
    expect(reply.data?.balance).toBe(12_345.67);
  });

  it("gives each session its own udid", async () => {
    const first = await me(await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp()));
    const second = await me(await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp()));
    expect(first.data?.udid).not.toBe(second.data?.udid);
  });
});

describe("POST /logout and GET /is-logouted/:udid", () => {
  it("answers false while the session lives and true once it is logged out", async () => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    const { udid } = (await me(token)).data!;

    expect(await isLoggedOut(token, udid)).toMatchObject({ statusCode: 200, data: false });
    expect(await call(app, "POST", "/logout", { token })).toMatchObject({ statusCode: 200, status: "SUCCESS" });
    expect(await isLoggedOut(token, udid)).toMatchObject({ statusCode: 200, data: true });
    expect(await me(token)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
  });

  it("answers true once the session has expired", async () => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    const { udid } = (await me(token)).data!;
    await db.updateTable("admin_sessions").set({ expires_at: new Date(Date.now() - 1000) }).where("udid", "=", udid).execute();

    expect(await isLoggedOut(token, udid)).toMatchObject({ statusCode: 200, data: true });
    expect(await me(token)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
  });

  it("answers 401 Admin not found for a token that is not this udid's", async () => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    const other = await login(app, admin.username, admin.password, freshIp());
    const { udid } = (await me(other)).data!;

    expect(await isLoggedOut(token, udid)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
    expect(await isLoggedOut("unknown-token", udid)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
    expect(await call(app, "GET", `/is-logouted/${udid}`)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
  });
});

describe("POST /change-password", () => {
  it("refuses a wrong current password with 400, changing nothing", async () => {
    const admin = await createAdmin();
    const ip = freshIp();
    const token = await login(app, admin.username, admin.password, ip);
    const other = await login(app, admin.username, admin.password, ip);

    const reply = await call(app, "POST", "/change-password", {
      token,
      body: { curPassword: "not-the-password", password: "brand-new-pw" },
    });
    expect(reply).toMatchObject({ statusCode: 400, status: "FAIL", msg: "Current password is incorrect" });
    expect((await me(other)).statusCode).toBe(200);
    await expect(login(app, admin.username, admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });

  it("refuses a new password outside 6–128 characters", async () => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    for (const password of ["short", "x".repeat(129)]) {
      const reply = await call(app, "POST", "/change-password", { token, body: { curPassword: admin.password, password } });
      expect(reply).toMatchObject({ statusCode: 400, msg: "password: Password must be 6 to 128 characters" });
    }
    await expect(login(app, admin.username, admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });

  it("stores the new password and revokes the other sessions", async () => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    const other = await login(app, admin.username, admin.password, freshIp());
    const otherUdid = (await me(other)).data!.udid;

    const reply = await call(app, "POST", "/change-password", {
      token,
      body: { curPassword: admin.password, password: "a-new-secret" },
    });
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS", msg: "Password changed successfully" });

    expect((await me(token)).statusCode).toBe(200);
    expect(await me(other)).toMatchObject({ statusCode: 401, msg: "Admin not found" });
    expect(await isLoggedOut(other, otherUdid)).toMatchObject({ data: true });
    const old = await call(app, "POST", "/login", { body: { username: admin.username, password: admin.password }, ip: freshIp() });
    expect(old).toMatchObject({ statusCode: 401, msg: "Invalid username or password" });
    await expect(login(app, admin.username, "a-new-secret", freshIp())).resolves.toEqual(expect.any(String));
  });

  it("makes a seeded account usable in production once its password is changed", async () => {
    const admin = await createAdmin();
    await db.updateTable("admins").set({ demo_password: true }).where("id", "=", admin.id).execute();
    const production = await testApp({ NODE_ENV: "production" });
    try {
      expect((await call(production, "POST", "/login", { body: { username: admin.username, password: admin.password }, ip: freshIp() })).statusCode).toBe(401);
      const token = await login(app, admin.username, admin.password, freshIp());
      await call(app, "POST", "/change-password", { token, body: { curPassword: admin.password, password: "chosen-pw" } });
      await expect(login(production, admin.username, "chosen-pw", freshIp())).resolves.toEqual(expect.any(String));
    } finally {
      await production.close();
    }
  });
});
