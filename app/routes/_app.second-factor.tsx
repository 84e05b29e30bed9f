/** Second Factor (issue 30): every operator's own enrolment; the super admin's policy and resets. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadSecondFactor, secondFactorAction } from "~/lib/mfa/screen.server";
import { screenHandle } from "~/lib/screens";

export { SecondFactorScreen as default } from "~/components/security/SecondFactorScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("second-factor");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadSecondFactor(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => secondFactorAction(request, context);
