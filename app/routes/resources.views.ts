/** The signed-in operator's saved views of a list screen (issue 32): GET `?screen=`, POST a save or a delete. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { changeView, listViews } from "~/lib/views.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => listViews(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => changeView(request, context);
