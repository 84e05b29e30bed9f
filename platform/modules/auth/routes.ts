import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { bearerToken } from "../../plugins/auth.js";
import { gameFlagsOf, toAdminRecord } from "../admins/service.js";
import { authenticated, clientOf } from "./access.js";
import { NewPassword } from "../../security/password.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { LoginBody } from "../../validation/accounts.js";
import { Secret, Text } from "../../validation/schemas.js";
import { AUTH_MESSAGE, createAuthService } from "./service.js";

const ChangePasswordBody = z.object({
  curPassword: Secret("Current password is required"),
  password: NewPassword,
});

// The console posts `{}`; anything else is a malformed call, refused before it signs anyone out.
const LogoutBody = z.object({}).strict();

const UdidParams = z.object({ udid: Text({ min: 1, max: 64 }) });

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

  app.get(CALLS.currentAdmin.path, async (request, reply) => {
    const { admin, session } = authenticated(request);
    return reply.ok(toAdminRecord(admin, session.udid));
  });

  app.get(CALLS.permissions.path, async (request, reply) => {
    return reply.ok(gameFlagsOf(authenticated(request).admin));
  });
}
