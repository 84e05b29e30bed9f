/** `#` in the palette: `?q=` finds pending requests by username or UTR. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchRequests } from "~/lib/requests.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  // A resource route answers a Response (Remix v3 drops plain objects here).
  return Response.json(term ? await searchRequests(request, context, term) : { hits: [], message: null });
}
