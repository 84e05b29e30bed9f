/** The settlement workspace (issue 18): markets awaiting settlement with the feed's result. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { screenHandle } from "~/lib/screens";
import { loadSettlementQueue } from "~/lib/settlement.server";

export { SettlementScreen as default } from "~/components/settlement/SettlementScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("settlement");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadSettlementQueue(request, context);
