import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { HttpError } from "../../errors.js";

/** GET /api/health: no token. The server listens only after migrating, so "up" means ready. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get("/api/health", async (request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
    } catch (error) {
      request.log.error({ err: error }, "health check: database unreachable");
      throw new HttpError(503, "Database unavailable");
    }
    return reply.ok({ database: "up" }, "ok");
  });
}
