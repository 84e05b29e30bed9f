/** Unfinished bulk and settlement jobs (issue 19): the operator's own, everyone's for the super admin. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadJobs } from "~/lib/jobs.server";
import { screenHandle } from "~/lib/screens";

export { JobsScreen as default } from "~/components/jobs/JobsScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("jobs");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadJobs(request, context);
