/** docs/product.md §2.14: one event's market detail. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadMarketDetail } from "~/lib/markets.server";
import { screenHandle } from "~/lib/screens";

export { MarketDetailScreen as default } from "~/components/markets/MarketDetail";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("markets");

export const loader = ({ request, context, params }: LoaderFunctionArgs) => loadMarketDetail(request, context, params);
