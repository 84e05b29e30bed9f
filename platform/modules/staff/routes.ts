import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { STAFF_FLAGS } from "../../../protocol/wire.js";
import { authenticated, requireSuperAdmin } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Id } from "../../validation/schemas.js";
import { NewPassword } from "../../security/password.js";
import { Username } from "../accounts/routes.js";
import { createAdminService, gameFlagsOf, STAFF_MESSAGE, toAdminRecord } from "./service.js";

const StaffFlagMap = z.object(Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, z.boolean().optional()]))).strict();

const AddStaffBody = z.object({ username: Username, password: NewPassword, permissions: StaffFlagMap }).strict();

const IdParams = z.object({ id: Id });

export default async function adminsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admins = createAdminService({ db: app.db, revealer: app.revealer });
  const superAdmin = { onRequest: requireSuperAdmin };

  app.get(CALLS.currentAdmin.path, async (request, reply) => {
    const { admin, session } = authenticated(request);
    return reply.ok(toAdminRecord(admin, session.udid));
  });

  app.get(CALLS.permissions.path, async (request, reply) => {
    return reply.ok(gameFlagsOf(authenticated(request).admin));
  });

  app.get(CALLS.partnerRoles.path, async (_request, reply) => {
    return reply.ok(await admins.partnerRoles());
  });

  api.get(CALLS.admins.path, superAdmin, async (_request, reply) => reply.ok(await admins.listStaff()));

  api.post(CALLS.addAdmin.path, { ...superAdmin, schema: { body: AddStaffBody } }, async (request, reply) => {
    return reply.ok(await admins.addStaff(authenticated(request).admin, request.body), STAFF_MESSAGE.added);
  });

  api.get(CALLS.removeAdmin.path, { ...superAdmin, schema: { params: IdParams } }, async (request, reply) => {
    await admins.removeStaff(authenticated(request).admin, request.params.id);
    return reply.ok(null, STAFF_MESSAGE.removed);
  });
}
