/** One chunk of settlements from the desk: each bet settled once upstream, each answer reported. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { settleChunk } from "~/lib/bets.server";

export const action = ({ request, context }: ActionFunctionArgs) => settleChunk(request, context);
