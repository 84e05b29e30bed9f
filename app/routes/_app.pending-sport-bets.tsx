/** docs/product.md §2.15: Pending Sport Bets, the settlement desk. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadPendingBets, resettleBet } from "~/lib/bets.server";
import { screenHandle } from "~/lib/screens";

export { PendingBetsScreen as default, pendingShouldRevalidate as shouldRevalidate } from "~/components/bets/PendingBets";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("pending-sport-bets");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadPendingBets(request, context);
/** Resettle bet… posts here; settlements go in chunks to /resources/bets/settle. */
export const action = ({ request, context }: ActionFunctionArgs) => resettleBet(request, context);
