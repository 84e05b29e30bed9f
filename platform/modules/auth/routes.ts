import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { bearerToken } from "../../plugins/auth.js";
import { authenticated } from "./access.js";
import { NewPassword } from "../../security/password.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Secret, Text } from "../../validation/schemas.js";
import { AUTH_MESSAGE, createAuthService, type Client } from "./service.js";

export const LoginBody = z.object({
  username: Text({ min: 1, max: 64 }),
  password: Secret("Password is required"),
});

const ChangePasswordBody = z.object({
  curPassword: Secret("Current password is required"),
  password: NewPassword,
});

// The console posts `{}`; anything else is a malformed call, refused before it signs anyone out.
const LogoutBody = z.object({}).strict();

const UdidParams = z.object({ udid: Text({ min: 1, max: 64 }) });

const USER_AGENT_MAX = 512;

/** The address and user agent a sign-in is logged with. */
export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: (request.headers["user-agent"] ?? "").slice(0, USER_AGENT_MAX) };
}

export default async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = createAuthService({
    db: app.db,
    production: app.config.NODE_ENV === "production",
    revealer: app.revealer,
  });

  api.post(CALLS.login.path, { config: { auth: false }, schema: { body: LoginBody } }, async (request, reply) => {
    return reply.ok(await auth.login(request.body, clientOf(request)), "Login successful");
  });

  // Beyond the spec: ends the caller's session on the server, not only in the console.
  api.post(CALLS.logout.path, { schema: { body: LogoutBody } }, async (request, reply) => {
    await auth.logout(authenticated(request).session);
    return reply.ok(null, "Logged out successfully");
  });

  // Authenticates loosely (see isLoggedOut), so it opts out of the strict hook.
  api.get(CALLS.isLogouted.path, { config: { auth: false }, schema: { params: UdidParams } }, async (request, reply) => {
    return reply.ok(await auth.isLoggedOut(bearerToken(request), request.params.udid));
  });

  api.post(CALLS.changePassword.path, { schema: { body: ChangePasswordBody } }, async (request, reply) => {
    const { admin, session } = authenticated(request);
    await auth.changePassword(admin.id, session, request.body);
    return reply.ok(null, AUTH_MESSAGE.passwordChanged);
  });
}
