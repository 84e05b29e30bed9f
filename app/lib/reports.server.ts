/** The report screens on the server: the address read with one schema, the report and its range. */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { REPORT_SUBJECT_TYPES } from "../../protocol/wire";
import type { RequestOf } from "./api-routes.server";
import { presetRange } from "./report-days";
import { orRouteError } from "./route-errors.server";
import { callAsOperator } from "./session.server";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A hand-edited address falls back: a bad date to today, a half subject to the operator's own report. */
const querySchema = z.object({
  from: z.string().regex(DAY).optional().catch(undefined),
  to: z.string().regex(DAY).optional().catch(undefined),
  user: z.string().regex(/^\d{1,18}$/).optional().catch(undefined),
  type: z.enum(REPORT_SUBJECT_TYPES).optional().catch(undefined),
  username: z.string().max(64).optional().catch(undefined),
});

export type ReportAddress = { from: string; to: string; user?: string; type?: (typeof REPORT_SUBJECT_TYPES)[number]; username?: string };

function addressOf(request: Request): ReportAddress {
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const today = presetRange("today");
  const from = query.from ?? today.from;
  const to = query.to && query.to >= from ? query.to : from;
  const subject = query.user && query.type ? { user: query.user, type: query.type, username: query.username } : {};
  return { from, to, ...subject };
}

export async function loadReport<V extends "reportV1" | "reportV2">(request: Request, context: AppLoadContext, version: V) {
  const query = addressOf(request);
  return { query, report: await orRouteError(callAsOperator(request, context, version, query as RequestOf<V>)) };
}
