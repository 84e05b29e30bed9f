/** docs/product.md §2.9: a user's bet history (`/users/bets?user=&username=`), a static route beside `/users/{panel}`. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadUserBets } from "~/lib/bets.server";
import { screenHandle } from "~/lib/screens";

export { BetHistoryScreen as default } from "~/components/bets/BetHistory";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("user-bets");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadUserBets(request, context);
