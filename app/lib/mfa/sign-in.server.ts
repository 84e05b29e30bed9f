/**
 * Sign-in's second step (issue 30). Once the API accepted the password, an operator who has a
 * second factor, or whose role the policy makes use one, waits: the upstream token is sealed in
 * the console's store for at most five minutes and nothing is called with it; the browser holds
 * only an opaque id in an httpOnly cookie. The session begins (beginSession) once the factor is
 * given, or, for an operator the policy requires and who has none, once they enrol.
 */
import { createCookie, type AppLoadContext } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import { recordSession } from "../audit.server";
import { env } from "../env.server";
import { safeRedirect } from "../forms/login";
import { firstIssue } from "../forms/first-issue";
import { postedFactorSchema, type FactorAnswer } from "../forms/second-factor";
import { beginSession } from "../session.server";
import { readPending, savePending, setPendingChallenge, takePending, type PendingSignIn } from "../store/second-factor.server";
import type { ConsoleStore } from "../store/schema";
import { checkGiven, enrolmentOf, requiredRoles, type Enrolment } from "./second-factor.server";
import { authenticationOptions, relyingPartyOf } from "./passkeys.server";
import { seal, unseal } from "./seal.server";
import { storeOf } from "../guards.server";

/** How long a sign-in waits for its second factor. */
export const PENDING_SECONDS = 5 * 60;
export const SECOND_STEP_PATH = "/login?step=second-factor";

const pendingCookie = createCookie("__betdesk_pending", {
  httpOnly: true,
  sameSite: "strict",
  secure: env.NODE_ENV === "production",
  path: "/",
  maxAge: PENDING_SECONDS,
});

/** The store row's id: a hash of the cookie's value, so the store alone names no pending sign-in. */
const rowIdOf = (value: string) => createHash("sha256").update(`betdesk-pending:${value}`).digest("hex");

export type Upstream = { token: string; udid: string; username: string; role: number };

/** Whether this operator's sign-in needs a second step, and which. */
async function secondStepOf(store: ConsoleStore, username: string, role: number): Promise<Enrolment | null> {
  const enrolment = await enrolmentOf(store, username);
  if (enrolment.enrolled || (await requiredRoles(store)).includes(role)) return enrolment;
  return null;
}

/**
 * After the password: null when the session may begin now, else the pending cookie to send (the
 * browser is then sent to the second step).
 */
export async function holdForSecondFactor(context: AppLoadContext, upstream: Upstream): Promise<string | null> {
  const store = storeOf(context);
  if (!(await secondStepOf(store, upstream.username, upstream.role))) return null;
  const value = randomBytes(32).toString("base64url");
  const id = rowIdOf(value);
  await savePending(store, { id, username: upstream.username, role: upstream.role, udid: upstream.udid, tokenSealed: seal(upstream.token) }, PENDING_SECONDS);
  return pendingCookie.serialize(value);
}

/** Where the password step sends the browser when a second step follows. */
export const secondStepAddress = (redirectTo: string | undefined): string =>
  `${SECOND_STEP_PATH}${redirectTo ? `&redirectTo=${encodeURIComponent(safeRedirect(redirectTo))}` : ""}`;

export async function pendingOf(request: Request, context: AppLoadContext): Promise<PendingSignIn | null> {
  const value: unknown = await pendingCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && context.store ? readPending(context.store, rowIdOf(value)) : null;
}

/** What the login screen shows at the second step: who, and which factors they have (none: enrol). */
export async function secondStepView(request: Request, context: AppLoadContext) {
  const pending = await pendingOf(request, context);
  if (!pending) return null;
  const { totp, passkeys } = await enrolmentOf(storeOf(context), pending.username);
  return { username: pending.username, totp, passkey: passkeys > 0, enrol: !totp && passkeys === 0 };
}
export type SecondStepView = NonNullable<Awaited<ReturnType<typeof secondStepView>>>;

export const forgetPending = (): Promise<string> => pendingCookie.serialize("", { maxAge: 0 });

/** The passkey options for the pending operator; the challenge waits on their pending sign-in. */
export async function pendingPasskeyOptions(request: Request, context: AppLoadContext, pending: PendingSignIn) {
  const options = await authenticationOptions(storeOf(context), relyingPartyOf(request), pending.username);
  await setPendingChallenge(storeOf(context), pending.id, options.challenge);
  return options;
}

const EXPIRED = "The sign-in waited too long: sign in again";

/** A refused second factor, in the trail as a refused sign-in naming why. */
const recordRefusal = (store: ConsoleStore, pending: Pick<PendingSignIn, "username" | "role">, method: string, message: string) =>
  recordSession(store, { operator: pending.username, operatorRole: pending.role, session: null }, "signIn", {
    outcome: "refused",
    status: 401,
    message: `Second factor (${method}) refused: ${message}`,
  });

export type SignedInAnswer = { ok: true; redirectTo: string } | { ok: false; message: string; expired?: true };

/**
 * Ends the wait and begins the session with the factor given (once: two tabs racing begin one),
 * answering the JSON and both cookies: the session's, and the pending one cleared.
 */
export async function beginAfterFactor(
  request: Request,
  context: AppLoadContext,
  pending: PendingSignIn,
  factor: string,
  redirectTo: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  if (!(await takePending(storeOf(context), pending.id))) return Response.json({ ok: false, message: EXPIRED, expired: true } satisfies SignedInAnswer, { status: 401 });
  const session = await beginSession(request, context, { token: unseal(pending.tokenSealed), udid: pending.udid, username: pending.username, role: pending.role, factor });
  const headers = new Headers();
  headers.append("Set-Cookie", session);
  headers.append("Set-Cookie", await forgetPending());
  return Response.json({ ok: true, redirectTo: safeRedirect(redirectTo), ...extra }, { headers });
}

/** The pending operator gives a factor: the session begins, or the refusal is answered (and audited). */
export async function completeSignIn(request: Request, context: AppLoadContext, answer: FactorAnswer, redirectTo: string | undefined): Promise<Response> {
  const store = storeOf(context);
  const pending = await pendingOf(request, context);
  if (!pending) return Response.json({ ok: false, message: EXPIRED, expired: true } satisfies SignedInAnswer, { status: 401 });
  const checked = await checkGiven(store, request, { username: pending.username, address: context.clientIp }, answer, pending.challenge);
  if (!checked.ok) {
    await recordRefusal(store, pending, answer.method, checked.message);
    return Response.json({ ok: false, message: checked.message } satisfies SignedInAnswer, { status: 401 });
  }
  return beginAfterFactor(request, context, pending, checked.factor, redirectTo);
}

/** The second step posted as a plain form (login's action): its fields checked, then as completeSignIn. */
export async function secondStepByForm(request: Request, context: AppLoadContext, form: Record<string, unknown>, redirectTo: string | undefined): Promise<Response> {
  const answer = postedFactorSchema.safeParse(form);
  if (!answer.success) return Response.json({ ok: false, message: firstIssue(answer.error) } satisfies SignedInAnswer, { status: 400 });
  return completeSignIn(request, context, answer.data, redirectTo);
}
