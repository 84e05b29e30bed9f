/**
 * Who the end-user API's caller is (as auth/access.ts is for admins): PLAYER_SESSIONS is the
 * /api/user scope's token lookup (plugins/auth.ts sets `request.player`), `playerOf` the
 * signed-in player of a protected route, for every module with routes in that scope.
 */
import type { FastifyRequest } from "fastify";
import { unauthorized } from "../../errors.js";
import type { TokenAuth } from "../../plugins/auth.js";
import { signedInPlayer, type Player } from "./service.js";

export const USER_API_PREFIX = "/api/user";
export const USER_NOT_FOUND = "User not found";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in end user under /api/user; null on routes with `config: { auth: false }`. */
    player: Player | null;
  }
}

export const PLAYER_SESSIONS: TokenAuth<"player"> = { property: "player", lookup: signedInPlayer, refusal: USER_NOT_FOUND };

export function playerOf(request: FastifyRequest): Player {
  if (!request.player) throw unauthorized(USER_NOT_FOUND);
  return request.player;
}
