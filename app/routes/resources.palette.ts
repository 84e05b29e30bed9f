/** The palette's memory of the signed-in operator (issue 32): GET their frecency, POST a command chosen. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { paletteMemory, recordPaletteUse } from "~/lib/palette-memory.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => paletteMemory(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => recordPaletteUse(request, context);
