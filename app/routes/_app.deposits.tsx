/** docs/product.md §2.11: Deposits — tabs Pending, Success, Fail; decisions on Pending. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { screenHandle } from "~/lib/screens";
import { decideRequest, loadRequests } from "~/lib/requests.server";

export { RequestListScreen as default } from "~/components/requests/RequestList";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("deposits");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadRequests(request, context, "deposit");
export const action = ({ request, context }: ActionFunctionArgs) => decideRequest(request, context, "deposit");
