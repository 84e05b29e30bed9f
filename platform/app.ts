/**
 * Builds the platform's Fastify instance without listening, so tests drive it with
 * `app.inject()` and server.ts adds only the socket.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import type { Db } from "./db/index.js";
import type { Env } from "./env.js";
import accountsRoutes from "./modules/accounts/routes.js";
import { ADMIN_SESSIONS } from "./modules/auth/access.js";
import authRoutes from "./modules/auth/routes.js";
import playerBetRoutes from "./modules/bets/player-routes.js";
import betRoutes from "./modules/bets/routes.js";
import healthRoutes from "./modules/health/routes.js";
import { PLAYER_SESSIONS, USER_API_PREFIX } from "./modules/players/access.js";
import playerRoutes from "./modules/players/routes.js";
import reportRoutes from "./modules/reports/routes.js";
import playerRequestRoutes from "./modules/requests/player-routes.js";
import requestRoutes from "./modules/requests/routes.js";
import settingsRoutes from "./modules/settings/routes.js";
import staffRoutes from "./modules/staff/routes.js";
import feedTestRoutes, { FEED_TEST_PREFIX } from "./modules/sports/feed-test-routes.js";
import { createFeedStore } from "./modules/sports/repository.js";
import { SCORECARD_PAGE_PATH, scorecardPageRoutes, SPORTS_API_PREFIX, sportsRoutes } from "./modules/sports/routes.js";
import auth from "./plugins/auth.js";
import envelope from "./plugins/envelope.js";
import errorHandler from "./plugins/error-handler.js";
import requestLog, { childLoggerFactory, loggerOptions, type LogTarget } from "./plugins/logging.js";
import observeRequests from "./plugins/metrics.js";
import profile from "./plugins/profile.js";
import { zodValidatorCompiler } from "./plugins/validation.js";
import realtime from "./realtime.js";
import { createRevealer, type Revealer } from "./security/reveal.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    config: Env;
    revealer: Revealer;
  }
}

export type AppOptions = {
  db: Db;
  env: Env;
  /** Where and how much to log (plugins/logging.ts); off unless given (tests stay quiet). */
  logger?: LogTarget | false;
  /** Where receipt images go; server.ts keeps them under DATA_DIR, anything else in a temp dir. */
  uploadsDir?: string;
};

export const ADMIN_API_PREFIX = "/api/admin";

export function buildApp({ db, env, logger = false, uploadsDir = join(tmpdir(), "betdesk-uploads") }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: logger && loggerOptions(env, logger),
    childLoggerFactory,
    // plugins/logging.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: env.PLATFORM_BODY_LIMIT,
    // The console on this host forwards the browser's address in X-Forwarded-For;
    // nobody else may set it.
    trustProxy: "loopback",
  });

  app.decorate("db", db);
  app.decorate("config", env);
  app.decorate("revealer", createRevealer(env));
  app.setValidatorCompiler(zodValidatorCompiler);
  app.register(errorHandler);
  app.register(requestLog);
  app.register(observeRequests);
  app.register(envelope, { secret: env.API_SECRET });
  // After the envelope: its hooks see opened bodies.
  app.register(profile, { name: env.PLATFORM_PROFILE, prefixes: { admin: ADMIN_API_PREFIX, sports: SPORTS_API_PREFIX } });

  app.register(realtime, { redisUrl: env.REDIS_URL, redisPrefix: env.REDIS_PREFIX });

  app.register(healthRoutes);
  app.register(
    async (adminApi) => {
      await adminApi.register(auth, ADMIN_SESSIONS);
      await adminApi.register(authRoutes);
      await adminApi.register(staffRoutes);
      await adminApi.register(accountsRoutes);
      await adminApi.register(requestRoutes, { uploadsDir });
      await adminApi.register(settingsRoutes, { uploadsDir });
      await adminApi.register(betRoutes);
      await adminApi.register(reportRoutes);
    },
    { prefix: ADMIN_API_PREFIX },
  );
  app.register(
    async (sportsApi) => {
      await sportsApi.register(auth, ADMIN_SESSIONS);
      await sportsApi.register(sportsRoutes);
    },
    { prefix: SPORTS_API_PREFIX },
  );
  app.register(scorecardPageRoutes, { prefix: SCORECARD_PAGE_PATH, frameAncestors: env.SCORECARD_FRAME_ANCESTORS });
  if (env.NODE_ENV === "test") app.register(feedTestRoutes, { prefix: FEED_TEST_PREFIX, store: createFeedStore(db) });
  app.register(
    async (userApi) => {
      await userApi.register(auth, PLAYER_SESSIONS);
      await userApi.register(playerRoutes);
      await userApi.register(playerRequestRoutes, { uploadsDir });
      await userApi.register(playerBetRoutes);
    },
    { prefix: USER_API_PREFIX },
  );
  return app;
}
