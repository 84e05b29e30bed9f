import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { call, createUser, footprint, freshIp, houseId, login, testApp } from "./support/platform.js";

let app: FastifyInstance;
let adminToken: string;

beforeAll(async () => {
  app = await testApp();
  adminToken = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
});
afterAll(() => app.close());

const userLogin = (body: unknown, ip = freshIp()) =>
  call<{ token: string }>(app, "POST", "/api/user/login", { body, ip, headers: { "user-agent": "player-agent" } });

describe("end-user API", () => {
  it("signs a user in, records the sign-in, and answers /me", async () => {
    const user = await createUser(await houseId(), 4_250n);
    const ip = freshIp();
    const reply = await userLogin({ username: user.username.toUpperCase(), password: user.password }, ip);
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS", data: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });

    const me = await call(app, "GET", "/api/user/me", { token: reply.data!.token });
    expect(me.data).toEqual({ _id: String(user.id), username: user.username, balance: 42.5, bonus: 0 });
    // An end-user token is no admin token.
    expect((await call(app, "GET", "/b2c/admin", { token: reply.data!.token })).statusCode).toBe(401);

    const logs = await call(app, "GET", `/login-logs/${user.id}`, { token: adminToken });
    expect(logs.data).toEqual([{ ip, userAgent: "player-agent", createdAt: expect.any(String) }]);
  });

  it("refuses a wrong password with 401 and a switched-off Login with 403, recording nothing", async () => {
    const user = await createUser(await houseId());
    const token = (await userLogin({ username: user.username, password: user.password })).data!.token;
    await call(app, "POST", "/change-permissions", {
      token: adminToken,
      body: { user: String(user.id), isPartner: false, permissions: {}, bet: true, login: false },
    });
    // Switching Login off also ends the sessions it had.
    expect(await call(app, "GET", "/api/user/me", { token })).toMatchObject({ statusCode: 401, msg: "User not found" });

    const before = await footprint();
    expect(await userLogin({ username: user.username, password: "wrong-one" })).toMatchObject({
      statusCode: 401,
      msg: "Invalid username or password",
    });
    expect(await userLogin({ username: user.username, password: user.password })).toMatchObject({ statusCode: 403, msg: "Login disabled" });
    expect(await footprint()).toEqual(before);
  });

  it("answers 401 User not found without a token", async () => {
    expect(await call(app, "GET", "/api/user/me")).toMatchObject({ statusCode: 401, status: "FAIL", msg: "User not found" });
  });
});
