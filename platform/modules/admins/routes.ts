import type { FastifyInstance } from "fastify";
import { authenticated } from "../../plugins/auth.js";
import { gameFlagsOf, partnerRoles, toAdminRecord } from "./service.js";

export default async function adminsRoutes(app: FastifyInstance) {
  app.get("/b2c/admin", async (request, reply) => {
    const { admin, session } = authenticated(request);
    return reply.ok(toAdminRecord(admin, session.udid));
  });

  app.get("/permissions", async (request, reply) => {
    return reply.ok(gameFlagsOf(authenticated(request).admin));
  });

  app.get("/partner-roles", async (_request, reply) => {
    return reply.ok(await partnerRoles(app.db));
  });
}
