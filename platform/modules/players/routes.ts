/**
 * The end-user API under /api/user (docs/protocol.md "End-user API"): what simulators and tests
 * use to act as players. Protected by default, like the admin API, with its own sessions
 * (players/access.ts, registered on the scope in app.ts); requests and bets add their own
 * routes to the scope.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { LoginBody } from "../../validation/accounts.js";
import { clientOf } from "../auth/access.js";
import { playerOf } from "./access.js";
import { createPlayerService, toMe } from "./service.js";

export default async function playerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const players = createPlayerService({ db: app.db, production: app.config.NODE_ENV === "production", hashCost: app.config.PASSWORD_HASH_COST });

  api.post("/login", { config: { auth: false }, schema: { body: LoginBody } }, async (request, reply) => {
    return reply.ok(await players.login(request.body, clientOf(request)), "Login successful");
  });

  api.get("/me", async (request, reply) => {
    return reply.ok(toMe(playerOf(request)));
  });
}
