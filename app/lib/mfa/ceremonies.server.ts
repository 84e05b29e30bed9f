/**
 * The browser's second-factor calls (`/resources/second-factor`, JSON): a pending sign-in's second
 * step (a factor, a passkey's options, or enrolment when the policy requires one and the operator
 * has none), and a signed-in operator's enrolment and re-authentication. A key's secret is shown
 * once, as it is made; after that it never leaves the server.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { readJson } from "../forms/run-form.server";
import type { ConsoleCall } from "../audit-labels";
import { factorAnswerSchema, passkeyNameSchema } from "../forms/second-factor";
import { firstIssue } from "../forms/first-issue";
import { actorOf, requireSession, type Session } from "../session.server";
import type { ConsoleStore } from "../store/schema";
import { saveChallenge, takeChallenge } from "../store/second-factor.server";
import { authenticationOptions, finishRegistration, registrationOptions, relyingPartyOf } from "./passkeys.server";
import { markFactorGiven } from "./reauth.server";
import { attempt, checkGiven, checkTotp, enrolmentOf, issueRecoveryCodes, recordSecurity, startTotpEnrolment } from "./second-factor.server";
import { beginAfterFactor, completeSignIn, pendingOf, pendingPasskeyOptions } from "./sign-in.server";
import { storeOf } from "../guards.server";

const CEREMONY_SECONDS = 120;

const intentSchema = z.object({
  intent: z.enum(["signIn", "signInOptions", "enrolStart", "enrolConfirm", "reauth", "reauthOptions", "myFactors", "totpStart", "totpConfirm", "passkeyOptions", "passkeyAdd"]),
  redirectTo: z.string().max(2048).optional().catch(undefined),
});
const codeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app") });
const passkeyAddSchema = z.object({ name: passkeyNameSchema, response: z.object({ id: z.string() }).passthrough() });

const refused = (message: string, status = 400) => Response.json({ ok: false, message }, { status });

/** Parses `body` with `schema`, or answers the first problem as a 400. */
function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown): z.infer<S> | Response {
  const result = schema.safeParse(body);
  return result.success ? result.data : refused(firstIssue(result.error));
}

export async function secondFactorCeremony(request: Request, context: AppLoadContext): Promise<Response> {
  const body = await readJson(request);
  const intent = parsed(intentSchema, body);
  if (intent instanceof Response) return intent;
  const store = storeOf(context);
  switch (intent.intent) {
    case "signIn": {
      const answer = parsed(factorAnswerSchema, body);
      return answer instanceof Response ? answer : completeSignIn(request, context, answer, intent.redirectTo);
    }
    case "signInOptions": {
      const pending = await pendingOf(request, context);
      return pending ? Response.json({ ok: true, options: await pendingPasskeyOptions(request, context, pending) }) : refused("The sign-in waited too long: sign in again", 401);
    }
    case "enrolStart":
    case "enrolConfirm":
      return enrolAtSignIn(request, context, store, intent.intent, body, intent.redirectTo);
  }
  const session = await requireSession(request, context);
  const who = { username: session.username, address: context.clientIp };
  switch (intent.intent) {
    case "myFactors": {
      const { totp, passkeys } = await enrolmentOf(store, session.username);
      return Response.json({ ok: true, totp, passkey: passkeys > 0 });
    }
    case "reauthOptions": {
      const options = await authenticationOptions(store, relyingPartyOf(request), session.username);
      await saveChallenge(store, session.username, options.challenge, CEREMONY_SECONDS);
      return Response.json({ ok: true, options });
    }
    case "reauth": {
      const answer = parsed(factorAnswerSchema, body);
      if (answer instanceof Response) return answer;
      const challenge = answer.method === "passkey" ? await takeChallenge(store, session.username) : null;
      const checked = await checkGiven(store, request, who, answer, challenge);
      if (!checked.ok) return refused(checked.message, 401);
      await markFactorGiven(context, session, checked.factor);
      return Response.json({ ok: true, message: "Confirmed" });
    }
    case "totpStart": {
      const started = await startTotpEnrolment(store, session.username);
      return started ? Response.json({ ok: true, ...started }) : refused("You already use an authenticator app; a super admin can reset it");
    }
    case "totpConfirm": {
      const form = parsed(codeSchema, body);
      if (form instanceof Response) return form;
      const before = await enrolmentOf(store, session.username);
      const checked = await attempt(store, who, "totp", () => checkTotp(store, session.username, form.code));
      if (!checked.ok) return refused(checked.message, 401);
      await markFactorGiven(context, session, "totp");
      return enrolled(store, session, before.enrolled, "Authenticator app added", "secondFactorEnrol");
    }
    case "passkeyOptions":
      return Response.json({ ok: true, options: await registrationOptions(store, relyingPartyOf(request), session.username) });
    case "passkeyAdd": {
      const form = parsed(passkeyAddSchema, body);
      if (form instanceof Response) return form;
      const before = await enrolmentOf(store, session.username);
      const problem = await finishRegistration(store, relyingPartyOf(request), session.username, form.response, form.name);
      if (problem) return refused(problem);
      return enrolled(store, session, before.enrolled, `Passkey ${form.name} added`, "passkeyAdd");
    }
  }
}

/** Audits an enrolment; the operator's first factor comes with ten recovery codes, shown once. */
async function enrolled(store: ConsoleStore, session: Session, hadFactor: boolean, message: string, call: ConsoleCall): Promise<Response> {
  await recordSecurity(store, await actorOf(session), call, message);
  const recoveryCodes = hadFactor ? undefined : await issueRecoveryCodes(store, session.username);
  return Response.json({ ok: true, message, recoveryCodes });
}

/**
 * The policy requires a factor this operator does not have: the second step is enrolment with an
 * authenticator app, confirmed with one code; the session begins with it.
 */
async function enrolAtSignIn(request: Request, context: AppLoadContext, store: ConsoleStore, intent: "enrolStart" | "enrolConfirm", body: unknown, redirectTo: string | undefined) {
  const pending = await pendingOf(request, context);
  if (!pending) return refused("The sign-in waited too long: sign in again", 401);
  if ((await enrolmentOf(store, pending.username)).enrolled) return refused("You have a second factor already: give it instead");
  if (intent === "enrolStart") {
    const started = await startTotpEnrolment(store, pending.username);
    return started ? Response.json({ ok: true, ...started }) : refused("Enrolment could not start: sign in again");
  }
  const form = parsed(codeSchema, body);
  if (form instanceof Response) return form;
  const checked = await attempt(store, { username: pending.username, address: context.clientIp }, "totp", () => checkTotp(store, pending.username, form.code));
  if (!checked.ok) return refused(checked.message, 401);
  const actor = { operator: pending.username, operatorRole: pending.role, session: null };
  await recordSecurity(store, actor, "secondFactorEnrol", "Authenticator app added at sign-in");
  return beginAfterFactor(request, context, pending, "totp", redirectTo, { recoveryCodes: await issueRecoveryCodes(store, pending.username) });
}
