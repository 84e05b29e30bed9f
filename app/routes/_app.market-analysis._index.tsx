/** docs/product.md §2.13: Market Analysis, the live events list as a liability board (issue 21). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadMarketList } from "~/lib/markets.server";
import { screenHandle } from "~/lib/screens";

export { MarketListScreen as default, boardShouldRevalidate as shouldRevalidate } from "~/components/markets/MarketList";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("markets");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadMarketList(request, context);
