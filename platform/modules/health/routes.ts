import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { sql } from "kysely";
import { HttpError } from "../../errors.js";
import { metrics } from "../../metrics.js";

declare module "fastify" {
  interface FastifyInstance {
    /** From now on /health/ready answers 503: the first step of a graceful shutdown (server.ts). */
    drain: () => void;
  }
}

/** A check slower than this fails: the balancer's own check times out soon after. */
const CHECK_TIMEOUT_MS = 2_000;

const withTimeout = (work: Promise<unknown>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS).unref())]);

/**
 * GET /api/health: no token. The server listens only after migrating, so "up" means ready.
 * GET /health/live answers while the process runs; GET /health/ready answers 200 when the database
 * and Redis (when configured) answer and the platform is not shutting down, else 503 naming the
 * failed checks (docs/operations.md "Liveness and readiness").
 */
export default fp(async function healthRoutes(app: FastifyInstance) {
  let draining = false;
  app.decorate("drain", () => void (draining = true));

  app.get("/api/health", async (request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
    } catch (error) {
      request.log.error({ err: error }, "health check: database unreachable");
      throw new HttpError(503, "Database unavailable");
    }
    return reply.ok({ database: "up" }, "ok");
  });

  app.get("/health/live", async () => ({ status: "live" }));

  app.get("/health/ready", async (request, reply) => {
    const checks: Record<string, () => Promise<unknown>> = { database: () => sql`select 1`.execute(app.db) };
    const pingRedis = app.realtime.pingRedis;
    if (pingRedis) checks.redis = pingRedis;
    const failed = draining
      ? ["shutdown"]
      : (
          await Promise.all(
            Object.entries(checks).map(([name, check]) =>
              withTimeout(check()).then(
                () => null,
                (error: unknown) => {
                  request.log.warn({ check: name, err: error }, "readiness check failed");
                  return name;
                },
              ),
            ),
          )
        ).filter((name): name is string => name !== null);
    metrics.ready.set(failed.length === 0 ? 1 : 0);
    return reply.code(failed.length === 0 ? 200 : 503).header("Cache-Control", "no-store").send({ status: failed.length === 0 ? "ready" : "unready", failed });
  });
}, { name: "health", dependencies: ["realtime"] });
