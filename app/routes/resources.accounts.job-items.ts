/** A chunk of a stored bulk job on the users and panels desks (issue 34): its items' keys in, every item's answer out. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { runAccountJobChunk } from "~/lib/accounts.server";

export const action = ({ request, context }: ActionFunctionArgs) => runAccountJobChunk(request, context);
