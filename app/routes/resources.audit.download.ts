/** The audit trail as CSV, with the screen's filters. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadAudit } from "~/lib/audit-trail.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => downloadAudit(request, context);
