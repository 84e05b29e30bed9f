/** A row's details for its inline panel: `?view=permissions` or `?view=logs`. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ACCOUNT_MODES } from "~/lib/account-list";
import { loadAccountDetails } from "~/lib/accounts.server";

const paramsSchema = z.object({ mode: z.enum(ACCOUNT_MODES), id: z.string().min(1).max(32) });
const viewSchema = z.enum(["permissions", "logs"]);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const parsed = paramsSchema.safeParse(params);
  const view = viewSchema.safeParse(new URL(request.url).searchParams.get("view"));
  if (!parsed.success || !view.success) throw new Response("Not Found", { status: 404 });
  return Response.json(await loadAccountDetails(request, context, parsed.data.mode, parsed.data.id, view.data));
}
