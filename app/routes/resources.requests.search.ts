/** `#` in the palette: `?q=` finds pending requests by username or UTR. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchRequests } from "~/lib/requests.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  if (!term) return { hits: [], message: null };
  return searchRequests(request, context, term);
}
