/** `@` in the palette: `?q=` searches users and panels by username on the server. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchAccounts } from "~/lib/accounts.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  // A resource route answers a Response (Remix v3 drops plain objects here).
  return Response.json(term ? await searchAccounts(request, context, term) : { hits: [], message: null });
}
