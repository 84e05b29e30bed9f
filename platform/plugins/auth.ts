/**
 * Bearer-token authentication for every route of the scope it is registered in, unless
 * the route opts out with `config: { auth: false }`. Protected by default, so a new route
 * cannot be left open by forgetting a hook. A missing, unknown, expired or revoked token
 * answers 401 "Admin not found", which makes the console end its session.
 */
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ROLE, WIRE_MESSAGE, type StaffFlag } from "../../protocol/wire.js";
import { forbidden, unauthorized } from "../errors.js";
import type { AdminAccount } from "../modules/admins/repository.js";
import { hasStaffFlag } from "../modules/admins/service.js";
import { findLiveSession, type SessionRef } from "../modules/auth/repository.js";
import { hashToken } from "../security/token.js";

export type Authenticated = { admin: AdminAccount; session: SessionRef };

declare module "fastify" {
  interface FastifyContextConfig {
    /** `false`: the route needs no bearer token. */
    auth?: boolean;
  }
  interface FastifyRequest {
    /** Set by the auth hook; null on routes with `config: { auth: false }`. */
    auth: Authenticated | null;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1] ?? null;
}

/** The signed-in admin and session of a protected route. */
export function authenticated(request: FastifyRequest): Authenticated {
  if (!request.auth) throw unauthorized(WIRE_MESSAGE.adminNotFound);
  return request.auth;
}

/**
 * A route's onRequest hook: the super admin passes; staff need `flag` (or one of the flags
 * given); anyone else is refused (403), except partners when `partners` is set: their calls are
 * confined to their own subtree. It runs after authentication and before the body is read, so a
 * caller without the right gets 403 whatever it sends.
 */
export function requireStaffFlag(flag: StaffFlag | StaffFlag[], { partners = false } = {}) {
  const flags = Array.isArray(flag) ? flag : [flag];
  return async (request: FastifyRequest): Promise<void> => {
    const { admin } = authenticated(request);
    if (partners && admin.role === ROLE.partner) return;
    if (!flags.some((held) => hasStaffFlag(admin, held))) throw forbidden();
  };
}

/** A route's onRequest hook: the super admin only (403 otherwise, before the body is read). */
export async function requireSuperAdmin(request: FastifyRequest): Promise<void> {
  if (authenticated(request).admin.role !== ROLE.superAdmin) throw forbidden();
}

export default fp(
  async function auth(app) {
    app.decorateRequest("auth", null);
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.auth === false) return;
      const token = bearerToken(request);
      const found = token ? await findLiveSession(app.db, hashToken(token)) : undefined;
      if (!found) throw unauthorized(WIRE_MESSAGE.adminNotFound);
      request.auth = found;
    });
  },
  { name: "auth" },
);
