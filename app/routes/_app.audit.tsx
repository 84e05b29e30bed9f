/** The audit trail (ADR 0009): role 1 and staff with `report`. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadAuditPage } from "~/lib/audit-trail.server";
import { screenHandle } from "~/lib/screens";

export { AuditTrail as default } from "~/components/audit/AuditTrail";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("audit");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadAuditPage(request, context);
