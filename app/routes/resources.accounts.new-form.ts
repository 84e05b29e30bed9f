/** The add user / add panel dialog's starting data. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadNewAccountForm } from "~/lib/accounts.server";

export const loader = async ({ request, context }: LoaderFunctionArgs) => Response.json(await loadNewAccountForm(request, context));
