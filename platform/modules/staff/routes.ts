import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { STAFF_FLAGS } from "../../../protocol/wire.js";
import { authenticated, requireSuperAdmin } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Username } from "../../validation/accounts.js";
import { Id } from "../../validation/schemas.js";
import { NewPassword } from "../../security/password.js";
import { createStaffService, STAFF_MESSAGE } from "./service.js";

const StaffFlagMap = z.object(Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, z.boolean().optional()]))).strict();

const AddStaffBody = z.object({ username: Username, password: NewPassword, permissions: StaffFlagMap }).strict();

const IdParams = z.object({ id: Id });

/** The staff desk (the spec's admins calls): the super admin lists, adds and removes staff. */
export default async function staffRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = createStaffService({ db: app.db, revealer: app.revealer });
  const superAdmin = { onRequest: requireSuperAdmin };

  api.get(CALLS.admins.path, superAdmin, async (_request, reply) => reply.ok(await staff.listStaff()));

  api.post(CALLS.addAdmin.path, { ...superAdmin, schema: { body: AddStaffBody } }, async (request, reply) => {
    return reply.ok(await staff.addStaff(authenticated(request).admin, request.body), STAFF_MESSAGE.added);
  });

  api.get(CALLS.removeAdmin.path, { ...superAdmin, schema: { params: IdParams } }, async (request, reply) => {
    await staff.removeStaff(authenticated(request).admin, request.params.id);
    return reply.ok(null, STAFF_MESSAGE.removed);
  });
}
