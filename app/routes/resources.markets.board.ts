/** The liability board's figures, a batch of events at a time (`?event=<sport>:<eventId>`…, `&fresh=1`). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { boardFigures } from "~/components/markets/board";
import { loadBoard } from "~/lib/markets.server";

// A resource route answers a Response (Remix v3 drops plain objects here).
export const loader = async ({ request, context }: LoaderFunctionArgs) => Response.json({ rows: await loadBoard(request, context, boardFigures) });
