/**
 * The platform's /metrics (docs/operations.md "Metrics"): every request observed by route
 * template and status; the figures read at each scrape; served by a small Fastify of its own on
 * PLATFORM_METRICS_PORT (never among the API's routes), behind METRICS_TOKEN when one is set.
 */
import { timingSafeEqual } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { poolWaiting } from "../../db/index.js";
import { metrics, registry } from "../metrics.js";

export default fp(async function observeRequests(app: FastifyInstance) {
  app.addHook("onResponse", async (request, reply) => {
    const labels = { route: request.routeOptions.url ?? "unmatched", method: request.method, status: String(reply.statusCode) };
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
});

const bearerMatches = (authorization: string | undefined, token: string | undefined): boolean => {
  if (!token) return true;
  const given = Buffer.from(authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** The metrics listener for `app` (its database's pool, its realtime sockets). */
export function metricsServer(app: FastifyInstance, token: string | undefined): FastifyInstance {
  const server = Fastify({ logger: false });
  server.get("/metrics", async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) return reply.code(401).type("text/plain").send("Unauthorized");
    metrics.dbPoolWaiting.set(poolWaiting(app.db));
    metrics.realtimeClients.set(app.realtime.clientCount());
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return server;
}
