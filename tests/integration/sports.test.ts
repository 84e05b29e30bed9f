import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnv, simFeedOn } from "../../platform/env.js";
import type { FeedEvent, FeedMarket, FeedStore } from "../../platform/modules/sports/feed.js";
import { createFeedStore, randomOffer } from "../../platform/modules/sports/repository.js";
import { startActivity } from "../../platform/sim/activity.js";
import { createFeedSimulator } from "../../platform/sim/feed.js";
import { TEST_SECRET, testApp, testDb } from "./support/platform.js";

let app: FastifyInstance | undefined;
afterAll(() => app?.close());

/** A store that keeps what the feed wrote, in order. */
function recordingStore() {
  const writes: string[] = [];
  const results = new Map<string, string>();
  const store: FeedStore = {
    async putEvent(event: FeedEvent) {
      writes.push(`${event.eventId} ${event.teamA} v ${event.teamB} ${event.inplay} ${event.status}`);
    },
    async putMarket(market: FeedMarket) {
      writes.push(`${market.marketId} ${market.status} ${JSON.stringify(market.runners)}`);
    },
    async closeMarket(marketId: string, result: string) {
      results.set(marketId, result);
    },
  };
  return { store, writes, results };
}

describe("sports feed simulator", () => {
  it("is on by default in development only", () => {
    const env = (source: Record<string, string>) => loadEnv({ API_SECRET: "not-the-dev-one", ...source });
    expect(simFeedOn(env({}))).toBe(true);
    expect(simFeedOn(env({ NODE_ENV: "test" }))).toBe(false);
    expect(simFeedOn(env({ NODE_ENV: "test", SIM_FEED: "on" }))).toBe(true);
  });

  it("produces the same events and moves under the same seed, and closes ended events with results", async () => {
    const run = async (seed: number) => {
      const recording = recordingStore();
      const feed = createFeedSimulator({ seed, store: recording.store, now: () => 0 });
      await feed.init();
      for (let i = 0; i < 130; i++) await feed.tick();
      return recording;
    };
    const [first, again, other] = [await run(3), await run(3), await run(4)];
    expect(again.writes).toEqual(first.writes);
    expect(other.writes).not.toEqual(first.writes);
    // Each sport's in-play event ended: match odds and bookmaker name a runner, fancy lines a run count.
    const results = [...first.results];
    expect(results.filter(([id]) => id.endsWith("-MO"))).toHaveLength(3);
    for (const [id, result] of results) {
      if (id.includes("-F")) expect(result).toMatch(/^\d+$/);
      else expect(result.length).toBeGreaterThan(0);
    }
  });

  it("feeds the store bets are placed against, and the activity simulator bets on it", async () => {
    const db = await testDb();
    const feed = createFeedSimulator({ seed: 11, store: createFeedStore(db) });
    await feed.init();
    await feed.tick();
    const offer = await randomOffer(db);
    expect(offer).toBeDefined();

    app = await testApp();
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    if (typeof address !== "object" || !address) throw new Error("no address");
    const since = new Date();
    const warnings: string[] = [];
    const activity = startActivity({
      baseUrl: `http://127.0.0.1:${address.port}`,
      secret: TEST_SECRET,
      requestsPerMinute: 1,
      betsPerMinute: 1200,
      offer: () => randomOffer(db),
      users: 20,
      warn: (message) => warnings.push(message),
    });
    const placed = async () =>
      Number((await db.selectFrom("sports_bets").select((eb) => eb.fn.countAll<bigint>().as("n")).where("created_at", ">=", since).executeTakeFirstOrThrow()).n);
    try {
      for (const start = Date.now(); Date.now() - start < 20_000 && (await placed()) === 0; ) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await activity.stop();
    }
    expect(await placed()).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });
});
