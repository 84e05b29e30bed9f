/** Download Users / panels as CSV, with the list's search and sort (and `partner`). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ACCOUNT_MODES } from "~/lib/account-list";
import { downloadAccounts } from "~/lib/accounts.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const mode = z.enum(ACCOUNT_MODES).safeParse(params.mode);
  if (!mode.success) throw new Response("Not Found", { status: 404 });
  return downloadAccounts(request, context, mode.data);
}
