/** What the /session resource route does: sign in, sign out, and the periodic logout check. */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { CheckResult } from "../machines/session.machine";
import { ApiError, callApi } from "./api.server";
import { MESSAGES } from "./constants";
import { loginSchema, safeRedirect } from "./forms/login";
import { firstIssue } from "./forms/first-issue";
import { upstreamStatus } from "./route-errors.server";
import { recordSession } from "./audit.server";
import { beginSession, callerOf, destroySession, readSession, revokeUpstream, signOutSession } from "./session.server";
import { allowlistBeforeSignIn, allowlistRefusal } from "./sessions.server";
import { readAllowlist } from "./store/sessions.server";
import { holdForSecondFactor, secondStepAddress } from "./mfa/sign-in.server";

/** What signIn's JSON body says. */
export type SignInAnswer = { ok: true; redirectTo: string } | { ok: false; message: string };

const fail = (message: string, status: number) => Response.json({ ok: false, message } satisfies SignInAnswer, { status });

export async function signIn(request: Request, context: AppLoadContext, body: unknown): Promise<Response> {
  const form = loginSchema.safeParse(body);
  if (!form.success) return fail(firstIssue(form.error), 400);
  const { username, password, redirectTo } = form.data;
  const address = context.clientIp ?? "";
  const refusedHere = async (message: string) => {
    await recordSession(context.store, { operator: username, operatorRole: null, session: null }, "signIn", { outcome: "refused", status: 403, message });
    return fail(message, 403);
  };
  // The address allowlist (ADR 0010), before the password leaves the console.
  const early = context.store ? await allowlistBeforeSignIn(context.store, username, address) : null;
  if (early) return refusedHere(early);
  try {
    const { token } = await callApi("login", { username, password }, callerOf(request, context));
    const admin = await callApi("currentAdmin", undefined, callerOf(request, context, token));
    // Again for the role the API names: a username the console had not seen, or whose role changed.
    const late = context.store ? allowlistRefusal(await readAllowlist(context.store), address, admin.role) : null;
    if (late) {
      await revokeUpstream(token);
      return refusedHere(late);
    }
    // A second factor to give first (issue 30): the token waits sealed in the store, the browser goes to the second step.
    const pending = await holdForSecondFactor(context, { token, udid: admin.udid, username: admin.username, role: admin.role });
    if (pending) return Response.json({ ok: true, redirectTo: secondStepAddress(redirectTo) } satisfies SignInAnswer, { headers: { "Set-Cookie": pending } });
    const cookie = await beginSession(request, context, { token, udid: admin.udid, username: admin.username, role: admin.role, factor: "password" });
    return Response.json({ ok: true, redirectTo: safeRedirect(redirectTo) } satisfies SignInAnswer, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof ApiError) {
      // A refused sign-in names the username tried.
      const outcome = error.outcomeUnknown ? "unknown" : "refused";
      await recordSession(context.store, { operator: username, operatorRole: null, session: null }, "signIn", { outcome, status: error.httpStatus, message: error.message });
      return fail(error.message, upstreamStatus(error));
    }
    throw error;
  }
}

export async function signOut(request: Request, context: AppLoadContext): Promise<Response> {
  const session = await readSession(request, context);
  // Ended for good in the store (its cookie replayed is refused on every instance), and revoked
  // upstream where the API can; the cookie goes whatever the platform answers.
  if (session) await signOutSession(context, session);
  return Response.json({ ok: true }, { headers: { "Set-Cookie": await destroySession() } });
}

/** `ended` when there is no session, the logout check says true, or the account is gone. */
export async function checkSession(request: Request, context: AppLoadContext): Promise<Response> {
  const session = await readSession(request, context);
  const ended = async () =>
    Response.json({ state: "ended" satisfies CheckResult }, { headers: { "Set-Cookie": await destroySession() } });
  if (!session) return ended();
  try {
    const loggedOut = await callApi("isLogouted", { udid: session.udid }, callerOf(request, context, session.token));
    return loggedOut ? ended() : Response.json({ state: "active" satisfies CheckResult });
  } catch (error) {
    if (error instanceof ApiError && error.endsSession) return ended();
    // Unknown: the platform may be down. The machine keeps the operator signed in.
    return Response.json({ state: null, message: MESSAGES.fallback }, { status: 503 });
  }
}

export const sessionIntentSchema = z.object({ intent: z.enum(["signIn", "signOut"]) }).passthrough();
