/** Home (issue 33): who is signed in, and what needs them now (app/lib/home.server.ts reads it all at once). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventWorstCase } from "~/components/markets/book";
import { loadHome } from "~/lib/home.server";
import { screenHandle } from "~/lib/screens";

export { HomeScreen as default } from "~/components/home/HomeScreen";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("home");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

// The risk line's worst case is the board's and an event's screen's (book.ts), so all three agree.
export const loader = ({ request, context }: LoaderFunctionArgs) => loadHome(request, context, eventWorstCase);
