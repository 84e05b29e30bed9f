/** Resource route behind the session machine: POST signs in or out, GET is the logout check. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readJson } from "~/lib/forms/run-form.server";
import { checkSession, sessionIntentSchema, signIn, signOut } from "~/lib/session-flow.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const body = await readJson(request);
  const parsed = sessionIntentSchema.safeParse(body);
  if (!parsed.success) return Response.json({ ok: false, message: "Unknown request" }, { status: 400 });
  return parsed.data.intent === "signIn" ? signIn(request, context, body) : signOut(request, context);
}

export const loader = ({ request, context }: LoaderFunctionArgs) => checkSession(request, context);
