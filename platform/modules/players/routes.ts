/**
 * The end-user API under /api/user (PROTOCOL.md "End-user API"): what simulators and tests
 * use to act as players. Protected by default, like the admin API, with its own sessions.
 */
import type { FastifyInstance } from "fastify";
import { unauthorized } from "../../errors.js";
import { bearerToken } from "../../plugins/auth.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { hashToken } from "../../security/token.js";
import { clientOf, LoginBody } from "../auth/routes.js";
import { findLiveUser, type Player } from "./repository.js";
import { createPlayerService, toMe } from "./service.js";

export const USER_API_PREFIX = "/api/user";
export const USER_NOT_FOUND = "User not found";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in end user under /api/user; null on routes with `config: { auth: false }`. */
    player: Player | null;
  }
}

export default async function playerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const players = createPlayerService({ db: app.db, production: app.config.NODE_ENV === "production" });

  app.decorateRequest("player", null);
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config.auth === false) return;
    const token = bearerToken(request);
    const player = token ? await findLiveUser(app.db, hashToken(token)) : undefined;
    if (!player) throw unauthorized(USER_NOT_FOUND);
    request.player = player;
  });

  api.post("/login", { config: { auth: false }, schema: { body: LoginBody } }, async (request, reply) => {
    return reply.ok(await players.login(request.body, clientOf(request)), "Login successful");
  });

  api.get("/me", async (request, reply) => {
    if (!request.player) throw unauthorized(USER_NOT_FOUND);
    return reply.ok(toMe(request.player));
  });
}
