/**
 * GET and POST /resources/palette (issue 32): the signed-in operator's frecency, read when the
 * palette first opens and recorded when they choose a command. Kept per operator in the store,
 * so it follows them to another browser and another console instance; nobody reads another's.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { storeOf } from "./guards.server";
import { requireSession } from "./session.server";
import { recordUse, usesOf } from "./store/frecency.server";

/** A registry id (`accounts.deposit`, `go.users`): a few dotted lower-case words. */
const commandIdSchema = z.string().regex(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+){1,3}$/, "Not a command id").max(80);
const useSchema = z.object({ command: commandIdSchema });

export async function paletteMemory(request: Request, context: AppLoadContext): Promise<Response> {
  const session = await requireSession(request, context);
  return Response.json({ uses: await usesOf(storeOf(context), session.username) });
}

export async function recordPaletteUse(request: Request, context: AppLoadContext): Promise<Response> {
  const session = await requireSession(request, context);
  const parsed = useSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false, message: parsed.error.issues[0]!.message }, { status: 400 });
  await recordUse(storeOf(context), session.username, parsed.data.command);
  return Response.json({ ok: true });
}
