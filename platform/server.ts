/**
 * The platform's entry: env → database → migrations → demo seed (empty database only)
 * → HTTP. Closes cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from "./app.js";
import { dbTargetFromEnv, openDb } from "./db/index.js";
import { migrate } from "./db/migrate.js";
import { seedIfEmpty } from "./db/seed.js";
import { loadEnv } from "./env.js";
import { createRevealer } from "./security/reveal.js";

async function main(): Promise<void> {
  const env = loadEnv();
  const db = await openDb(dbTargetFromEnv(env));
  await migrate(db);
  await seedIfEmpty(db, createRevealer(env));

  const app = buildApp({ db, env, logger: { level: env.NODE_ENV === "production" ? "info" : "warn" } });
  app.addHook("onClose", async () => db.destroy());

  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    app.close().then(
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
  console.log(`platform listening on http://${env.PLATFORM_HOST}:${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
