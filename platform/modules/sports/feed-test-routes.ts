/**
 * NODE_ENV=test only: end-to-end tests drive the feed simulator through its interface, since the
 * feed does not run by itself under test (SIM_FEED). `POST /api/test/feed/finish/{eventId}` plays
 * that event to its end as the simulator would and answers the results it closed its markets with.
 * The simulator starts from the opening state the demo seed wrote (the same FEED_SEED, so the same
 * events and prices), so bets placed on the seeded markets stand on the markets it closes.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { createFeedSimulator, type FeedSimulator } from "../../sim/feed.js";
import type { FeedStore } from "./feed.js";

export const FEED_TEST_PREFIX = "/api/test/feed";

/** `store`: the feed's tables (sports/repository.ts createFeedStore), given by app.ts as server.ts gives it to the running simulator. */
export default async function feedTestRoutes(app: FastifyInstance, { store }: { store: FeedStore }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  let feed: Promise<FeedSimulator> | undefined;
  const simulator = () =>
    (feed ??= (async () => {
      const simulator = createFeedSimulator({ seed: app.config.FEED_SEED, store, onChange: app.realtime.book.marketUpdate });
      await simulator.init();
      return simulator;
    })());

  api.post("/finish/:eventId", { schema: { params: z.object({ eventId: z.string().min(1).max(64) }).strict() } }, async (request, reply) => {
    const markets = await (await simulator()).finish(request.params.eventId);
    return reply.code(markets.length > 0 ? 200 : 404).send({ markets });
  });
}
