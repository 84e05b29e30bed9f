/**
 * `/b2c/report` (v1) and `/report` (v2) under the admin API: staff need `report`; partners
 * are confined to their own subtree by the service.
 */
import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { REPORT_SUBJECT_TYPES } from "../../../protocol/wire.js";
import { authenticated, requireStaffFlag } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { dayRange, DayRangeFields, fromNotAfterTo } from "../../validation/days.js";
import { blankless, Id, Text } from "../../validation/schemas.js";
import { createReportService, type ReportQuery } from "./service.js";

const ReportQuerySchema = z
  .object({
    ...DayRangeFields,
    user: blankless(Id.optional()),
    type: blankless(z.enum(REPORT_SUBJECT_TYPES).optional()),
    // The console sends the username for its title; the id decides.
    username: blankless(Text({ max: 64 }).optional()),
  })
  .strict()
  .refine((query) => query.type === undefined || query.user !== undefined, { message: "Required with type", path: ["user"] })
  .refine((query) => query.user === undefined || query.type !== undefined, { message: "Required with user", path: ["type"] })
  .refine(...fromNotAfterTo)
  .transform(
    (query): ReportQuery => ({
      ...dayRange(query),
      subject: query.user !== undefined && query.type !== undefined ? { type: query.type, id: query.user } : undefined,
    }),
  );

export default async function reportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const reports = createReportService(app.db);
  const options = { onRequest: requireStaffFlag("report", { partners: true }), schema: { querystring: ReportQuerySchema } };

  api.get(CALLS.reportV1.path, options, async (request, reply) => reply.ok(await reports.reportV1(authenticated(request).admin, request.query)));

  api.get(CALLS.reportV2.path, options, async (request, reply) => reply.ok(await reports.reportV2(authenticated(request).admin, request.query)));
}
