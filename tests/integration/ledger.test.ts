import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { mulberry32 } from "../../platform/sim/random.js";
import { call, createAdmin, createUser, freshIp, ledgerBreaches, login, testApp } from "./support/platform.js";

let app: FastifyInstance;

beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());


describe("the ledger", () => {
  it("keeps every balance equal to the sum of its entries, and every transfer at zero, through 500 random moves", async () => {
    const random = mulberry32(20_240_601);
    const top = await createAdmin({ role: 3, balance: 50_000n });
    const sub = await createAdmin({ role: 3, parent: top.id, partnerRoleLevel: 2, balance: 20_000n });
    const users = [
      ...(await Promise.all([1, 2, 3].map(() => createUser(top.id, 1_000n)))),
      ...(await Promise.all([1, 2, 3].map(() => createUser(sub.id)))),
    ];
    const actors = [
      { token: await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp()), targets: [...users, sub] },
      { token: await login(app, top.username, top.password, freshIp()), targets: [...users, sub] },
      { token: await login(app, sub.username, sub.password, freshIp()), targets: users.slice(3) },
    ];

    const outcomes = new Map<string, number>();
    for (let i = 0; i < 500; i++) {
      const actor = actors[Math.floor(random() * actors.length)]!;
      const target = actor.targets[Math.floor(random() * actor.targets.length)]!;
      const path = random() < 0.55 ? "/user-deposit" : "/user-withdraw";
      const amount = Math.floor(random() * 40_000) / 100 + 0.01;
      const reply = await call(app, "POST", path, {
        token: actor.token,
        body: { amount, user: String(target.id), isPartner: target.id === sub.id, remark: `move ${i}` },
      });
      const outcome = `${reply.statusCode} ${reply.msg}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    // Both successes and refusals happened, and nothing else.
    expect([...outcomes.keys()].sort()).toEqual([
      "200 Deposit added successfully",
      "200 Withdraw successfully",
      "409 Insufficient balance",
    ]);
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });
});
