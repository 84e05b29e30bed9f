/** The open console sessions (issue 30, ADR 0010): the operator's own, everyone's for the super admin, and the address allowlist. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadSessions, sessionsAction } from "~/lib/sessions.server";
import { screenHandle } from "~/lib/screens";

export { SessionsScreen as default } from "~/components/sessions/SessionsScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("sessions");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadSessions(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => sessionsAction(request, context);
