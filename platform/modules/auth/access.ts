/**
 * Who the admin API's caller is and what it may do. ADMIN_SESSIONS is the admin scopes' token
 * lookup (plugins/auth.ts sets `request.auth`); the route hooks below check the caller's
 * role and staff flags before the body is read.
 */
import type { FastifyRequest } from "fastify";
import { ROLE, WIRE_MESSAGE, type StaffFlag } from "../../../protocol/wire.js";
import { forbidden, unauthorized } from "../../errors.js";
import type { TokenAuth } from "../../plugins/auth.js";
import { hasStaffFlag } from "../admins/service.js";
import { signedInAdmin, type Authenticated, type Client } from "./service.js";

export type { Authenticated } from "./service.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in admin under the admin scopes; null on routes with `config: { auth: false }`. */
    auth: Authenticated | null;
  }
}

export const ADMIN_SESSIONS: TokenAuth<"auth"> = { property: "auth", lookup: signedInAdmin, refusal: WIRE_MESSAGE.adminNotFound };

const USER_AGENT_MAX = 512;

/** The address and user agent a sign-in is logged with, admin or end user. */
export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: (request.headers["user-agent"] ?? "").slice(0, USER_AGENT_MAX) };
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
