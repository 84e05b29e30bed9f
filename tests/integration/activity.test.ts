import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnv, simActivityOn } from "../../platform/env.js";
import { startActivity } from "../../platform/sim/activity.js";
import { TEST_SECRET, testApp, testDb } from "./support/platform.js";

let app: FastifyInstance | undefined;
afterAll(() => app?.close());

describe("activity simulator", () => {
  it("is on by default in development only, and as told otherwise", () => {
    const env = (source: Record<string, string>) => loadEnv({ API_SECRET: "not-the-dev-one", ...source });
    expect(simActivityOn(env({}))).toBe(true);
    expect(simActivityOn(env({ NODE_ENV: "test" }))).toBe(false);
    expect(simActivityOn(env({ NODE_ENV: "production" }))).toBe(false);
    expect(simActivityOn(env({ NODE_ENV: "test", SIM_ACTIVITY: "on" }))).toBe(true);
    expect(simActivityOn(env({ SIM_ACTIVITY: "off" }))).toBe(false);
    expect(() => env({ SIM_REQUESTS_PER_MINUTE: "0" })).toThrow(/SIM_REQUESTS_PER_MINUTE/);
  });

  it("signs seeded users in and asks for deposits and withdrawals through the end-user API", async () => {
    app = await testApp();
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    if (typeof address !== "object" || !address) throw new Error("no address");
    const db = await testDb();
    const since = new Date();
    const warnings: string[] = [];
    const activity = startActivity({
      baseUrl: `http://127.0.0.1:${address.port}`,
      secret: TEST_SECRET,
      requestsPerMinute: 1200,
      users: 20,
      warn: (message) => warnings.push(message),
    });
    const requests = async () => {
      const count = async (table: "deposit_requests" | "withdraw_requests") =>
        Number(
          (await db.selectFrom(table).select((eb) => eb.fn.countAll<bigint>().as("n")).where("created_at", ">=", since).executeTakeFirstOrThrow()).n,
        );
      return { deposits: await count("deposit_requests"), withdraws: await count("withdraw_requests") };
    };
    try {
      for (const start = Date.now(); Date.now() - start < 20_000; ) {
        const seen = await requests();
        if (seen.deposits > 0 && seen.withdraws > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await activity.stop();
    }
    const seen = await requests();
    expect(seen.deposits).toBeGreaterThan(0);
    expect(seen.withdraws).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });
});
