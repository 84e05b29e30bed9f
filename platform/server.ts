/**
 * The platform's entry: env → database → migrations → demo seed (empty database only)
 * → sweep of orphan receipt images → HTTP. Closes cleanly on SIGINT/SIGTERM.
 */
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

async function main(): Promise<void> {
  const env = loadEnv();
  const db = await openDb(dbTargetFromEnv(env));
  await migrate(db);
  const uploadsDir = uploadsDirOf(env);
  await seedIfEmpty(db, createRevealer(env), { uploadsDir });

  const app = buildApp({
    db,
    env,
    logger: { level: env.NODE_ENV === "production" ? "info" : "warn" },
    uploadsDir,
  });
  const swept = await sweepOrphanImages(uploadsDir, (names) => referencedImages(db, names));
  if (swept.length > 0) app.log.warn(`removed ${swept.length} receipt image(s) no request carries`);
  app.addHook("onClose", async () => db.destroy());

  let activity: ReturnType<typeof startActivity> | undefined;
  let feed: ReturnType<typeof createFeedSimulator> | undefined;
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    Promise.all([activity?.stop(), feed?.stop()])
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, "close failed");
          process.exit(1);
        },
      );
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);

  await app.listen({ host: env.PLATFORM_HOST, port: env.PLATFORM_PORT });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : env.PLATFORM_PORT;
  console.log(`platform listening on http://${env.PLATFORM_HOST}:${port}, profile ${env.PLATFORM_PROFILE}`);

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
