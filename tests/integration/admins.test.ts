import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_FLAGS, type PartnerRole } from "../../protocol/wire.js";
import { DEMO_ACCOUNTS, PARTNER_ROLES } from "../../platform/seed.js";
import { call, createAdmin, freshIp, login, testApp } from "./support/platform.js";

let app: FastifyInstance;

beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const allGameFlags = (value: boolean) => Object.fromEntries(GAME_FLAGS.map((flag) => [flag, value]));

describe("GET /permissions", () => {
  it("gives the super admin every game flag", async () => {
    const token = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
    expect((await call(app, "GET", "/permissions", { token })).data).toEqual(allGameFlags(true));
  });

  it("gives the demo staff account none", async () => {
    const token = await login(app, DEMO_ACCOUNTS.staff.username, DEMO_ACCOUNTS.staff.password, freshIp());
    expect((await call(app, "GET", "/permissions", { token })).data).toEqual(allGameFlags(false));
  });

  it("gives an account exactly the game flags it holds, never staff flags", async () => {
    const partner = await createAdmin({ role: 3, permissions: { cricket: true, casino: true, users: true } });
    const token = await login(app, partner.username, partner.password, freshIp());
    expect((await call(app, "GET", "/permissions", { token })).data).toEqual({
      ...allGameFlags(false),
      cricket: true,
      casino: true,
    });
  });
});

describe("GET /partner-roles", () => {
  it("lists the partner roles, highest tier first", async () => {
    const token = await login(app, DEMO_ACCOUNTS.partner.username, DEMO_ACCOUNTS.partner.password, freshIp());
    const reply = await call<PartnerRole[]>(app, "GET", "/partner-roles", { token });
    expect(reply.statusCode).toBe(200);
    expect(reply.data).toEqual(PARTNER_ROLES.map((role) => ({ _id: expect.stringMatching(/^\d+$/), role })));
  });
});
