/** Download Bets (docs/product.md §2.9): the platform's CSV for the history's user, kind and dates. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadBets } from "~/lib/bets.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => downloadBets(request, context);
