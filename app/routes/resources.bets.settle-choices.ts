/** Settle market…'s choices: events with pending bets, an event's markets, or a market's pending bets. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { settleChoices } from "~/lib/bets.server";
import { orRouteError } from "~/lib/route-errors.server";

export const loader = async ({ request, context }: LoaderFunctionArgs) => Response.json(await orRouteError(settleChoices(request, context)));
