/** `#` and Open market… in the palette: `?q=` finds events by team name. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchEvents } from "~/lib/markets.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  // A resource route answers a Response (Remix v3 drops plain objects here).
  return Response.json(term ? await searchEvents(request, context, term) : { hits: [], message: null });
}
