/**
 * The platform's entry: env → database → migrations → demo seed (empty database only)
 * → sweep of orphan receipt images → HTTP (and /metrics on its own port). Closes gracefully on
 * SIGINT/SIGTERM (docs/operations.md "Shutdown"): readiness turns 503 at once; on SIGTERM the
 * balancer is given time to notice; the simulators stop; requests in flight finish, up to
 * SHUTDOWN_GRACE_MS (a /settle-bets in flight commits whole or not at all); then the sockets
 * and the database close. A second signal exits at once (close-with-grace).
 */
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.js";
import { dbTargetFromEnv, openDb } from "./db/index.js";
import { migrate } from "./db/migrate.js";
import { seedIfEmpty } from "./seed.js";
import { referencedImages } from "./modules/requests/repository.js";
import { sweepOrphanImages } from "./uploads.js";
import { createFeedStore, randomOffer } from "./modules/sports/repository.js";
import { loadEnv, simActivityOn, simFeedOn, uploadsDirOf } from "./env.js";
import { createRevealer } from "./security/reveal.js";
import { startActivity } from "./sim/activity.js";
import { createFeedSimulator } from "./sim/feed.js";
import { metricsServer } from "./plugins/metrics.js";

/** SIGTERM waits this long after readiness turned 503 before closing the listener: the balancer's `fall 2` checks at 1 s. */
const DRAIN_MS = 3_000;

async function main(): Promise<void> {
  const env = loadEnv();
  const db = await openDb(dbTargetFromEnv(env));
  await migrate(db);
  const uploadsDir = uploadsDirOf(env);
  await seedIfEmpty(db, createRevealer(env), { uploadsDir });

  const app = buildApp({
    db,
    env,
    logger: {},
    uploadsDir,
  });
  const swept = await sweepOrphanImages(uploadsDir, (names) => referencedImages(db, names));
  if (swept.length > 0) app.log.warn(`removed ${swept.length} receipt image(s) no request carries`);
  app.addHook("onClose", async () => db.destroy());

  let activity: ReturnType<typeof startActivity> | undefined;
  let feed: ReturnType<typeof createFeedSimulator> | undefined;
  const metrics = env.PLATFORM_METRICS_PORT ? metricsServer(app, env.METRICS_TOKEN) : undefined;
  closeWithGrace(
    {
      delay: DRAIN_MS + env.SHUTDOWN_GRACE_MS + 5_000,
      skip: ["uncaughtException", "unhandledRejection"],
      logger: { error: (message: unknown) => app.log.error(message) },
      onSecondSignal: (signal) => app.log.warn({ signal }, "second signal: exiting at once"),
    },
    async ({ signal }) => {
      app.drain();
      app.log.info({ signal }, "shutting down: readiness answers 503");
      // Ctrl+C in a terminal has no balancer to wait for.
      if (signal === "SIGTERM") await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
      await Promise.all([activity?.stop(), feed?.stop()]);
      const forced = setTimeout(() => {
        app.log.warn("grace period over: closing requests still in flight");
        app.server.closeAllConnections();
      }, env.SHUTDOWN_GRACE_MS);
      // Stops listening, waits for the requests in flight, closes the sockets, then the database (onClose).
      await app.close();
      clearTimeout(forced);
      await metrics?.close();
      app.log.info("closed");
    },
  );

  await app.listen({ host: env.PLATFORM_HOST, port: env.PLATFORM_PORT });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : env.PLATFORM_PORT;
  // The banner: on stdout whatever LOG_LEVEL says, so `npm start` always shows where to go.
  console.log(`platform listening on http://${env.PLATFORM_HOST}:${port}, profile ${env.PLATFORM_PROFILE}`);
  if (metrics && env.PLATFORM_METRICS_PORT) await metrics.listen({ host: env.METRICS_HOST, port: env.PLATFORM_METRICS_PORT });

  if (simFeedOn(env)) {
    feed = createFeedSimulator({ seed: env.FEED_SEED, store: createFeedStore(db), onChange: app.realtime.book.marketUpdate, tickMs: env.FEED_TICK_MS });
    await feed.start();
    console.log(`sports feed simulator: seed ${env.FEED_SEED}, a tick every ${env.FEED_TICK_MS} ms (SIM_FEED=off to stop it)`);
  }

  // After listen, so start-up time is unchanged; it calls this process like any client.
  if (simActivityOn(env)) {
    const host = ["0.0.0.0", "::"].includes(env.PLATFORM_HOST) ? "127.0.0.1" : env.PLATFORM_HOST;
    activity = startActivity({
      baseUrl: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      secret: env.API_SECRET,
      requestsPerMinute: env.SIM_REQUESTS_PER_MINUTE,
      betsPerMinute: env.SIM_BETS_PER_MINUTE,
      offer: () => randomOffer(db),
      warn: (message) => app.log.warn(message),
    });
    console.log(
      `activity simulator: ${env.SIM_REQUESTS_PER_MINUTE} requests and ${env.SIM_BETS_PER_MINUTE} bets per minute (SIM_ACTIVITY=off to stop it)`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
