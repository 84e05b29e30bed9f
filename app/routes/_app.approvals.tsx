/** Four-eyes approvals (issue 19, ADR 0009): role 1 and staff; the thresholds are role 1's. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { approvalsAction, loadApprovals } from "~/lib/approvals.server";
import { screenHandle } from "~/lib/screens";

export { ApprovalsScreen as default } from "~/components/approvals/ApprovalsScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("approvals");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadApprovals(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => approvalsAction(request, context);
