/** `#` in the palette: `?q=` finds pending bets by id, username or event. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchBets } from "~/lib/bets.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  return Response.json(term ? await searchBets(request, context, term) : { hits: [], message: null });
}
