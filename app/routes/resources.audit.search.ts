/** `!` in the palette: `?q=` finds the audit entries done to or by an account. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchAudit } from "~/lib/audit-trail.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 64);
  return Response.json(term ? await searchAudit(request, context, term) : { hits: [], message: null });
}
