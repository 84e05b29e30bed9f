/**
 * The console's session: an httpOnly, SameSite cookie whose value is the upstream token and the
 * sign-in's udid, encrypted and authenticated (AES-256-GCM) so the token is never readable in the
 * browser. SESSION_SECRET may list several secrets: the first encrypts, all are tried to decrypt.
 */
import { capabilities } from "./capabilities.server";
import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { AnswerOf, CallName, RequestOf } from "./api-routes.server";
import { ApiError, callApi, downloadFromApi, exchangeApi, type Caller } from "./api.server";
import { auditedCall, auditedItems, ITEMIZED_CALLS, type AuditActor, type FourEyes, type ItemOutcome } from "./audit.server";
import { env } from "./env.server";
import { holdAboveThreshold } from "./four-eyes.server";
import { orRouteError } from "./route-errors.server";

/** Matches the platform's token lifetime. */
const SESSION_SECONDS = 12 * 60 * 60;

const sessionSchema = z.object({
  token: z.string().min(1),
  udid: z.string().min(1),
  // Who signed in, for the audit trail; absent in cookies from before it.
  username: z.string().optional(),
  role: z.number().int().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

const cookie = createCookie("__betdesk", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.NODE_ENV === "production",
  path: "/",
  maxAge: SESSION_SECONDS,
});

const keys = env.sessionSecrets.map((secret) => createHash("sha256").update(`betdesk-session:${secret}`).digest());

function encrypt(session: Session): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys[0]!, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function decrypt(text: string): Session | null {
  const raw = Buffer.from(text, "base64url");
  if (raw.length < 29) return null;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
      const parsed = sessionSchema.safeParse(JSON.parse(json));
      return parsed.success ? parsed.data : null;
    } catch {
      // Not this key (or tampered): try the next one.
    }
  }
  return null;
}

/** Read once per request: a settlement chunk makes a call per bet, each asking for the session. */
const sessionsRead = new WeakMap<Request, Promise<Session | null>>();

export function readSession(request: Request): Promise<Session | null> {
  let session = sessionsRead.get(request);
  if (!session) {
    session = cookie.parse(request.headers.get("Cookie")).then((value: unknown) => (typeof value === "string" ? decrypt(value) : null));
    sessionsRead.set(request, session);
  }
  return session;
}

export const commitSession = (session: Session): Promise<string> => cookie.serialize(encrypt(session));
export const destroySession = (): Promise<string> => cookie.serialize("", { maxAge: 0 });

/** Redirect to the login screen, clearing the cookie, remembering where the operator was going. */
export async function signedOutRedirect(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const back = url.pathname === "/" ? "" : `?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
  return redirect(`/login${back}`, { headers: { "Set-Cookie": await destroySession() } });
}

/** The session, or a thrown redirect to /login. */
export async function requireSession(request: Request): Promise<Session> {
  const session = await readSession(request);
  if (!session) throw await signedOutRedirect(request);
  return session;
}

/** The operator's address and browser, forwarded so the platform's logs and limits see the person. */
export function callerOf(request: Request, context: AppLoadContext, token?: string): Caller {
  return { token, clientIp: context.clientIp, userAgent: request.headers.get("User-Agent") ?? undefined };
}

/**
 * Runs upstream work as the signed-in operator. An answer that ends the session (`Admin not
 * found`) becomes a thrown redirect to /login that also clears the cookie.
 */
async function asOperator<T>(request: Request, context: AppLoadContext, work: (caller: Caller, session: Session) => Promise<T>): Promise<T> {
  const session = await requireSession(request);
  try {
    return await work(callerOf(request, context, session.token), session);
  } catch (error) {
    if (error instanceof ApiError && error.endsSession) throw await signedOutRedirect(request);
    throw error;
  }
}

export const callAsOperator = <K extends CallName>(
  request: Request,
  context: AppLoadContext,
  name: K,
  body: RequestOf<K>,
): Promise<AnswerOf<K>> =>
  // An extension call's bare 404 teaches what this API lacks, and a call known missing is refused
  // at once, saying so (capabilities.server.ts); a spec call is simply made.
  // Above a four-eyes threshold the call waits for a second operator instead (four-eyes.server.ts).
  // A state-changing call is recorded in the audit trail with its answer (audit.server.ts).
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, async () => {
      const actor = () => actorOf(session, caller);
      await holdAboveThreshold(context.store, actor, caller, name, body);
      return auditedCall(context.store, actor, name, body, () => exchangeApi(name, body, caller));
    }),
  );

/**
 * A call made of single calls' requests (audit.server.ts ITEMIZED_CALLS: `/settle-bets` of
 * `/settel-bet`s), as the operator: `outcomesOf` reads each item's outcome from the answer, in the
 * order of `items`, and the trail records one entry per item as its single call, unless the call
 * failed in a way after which the caller sends the items on their own (`resent`). Never held: the
 * console sends one only for work already confirmed (a settlement job's chunk).
 */
export const callItemsAsOperator = <K extends keyof typeof ITEMIZED_CALLS>(
  request: Request,
  context: AppLoadContext,
  name: K,
  items: readonly RequestOf<(typeof ITEMIZED_CALLS)[K]>[],
  body: RequestOf<K>,
  { outcomesOf, resent }: { outcomesOf: (answer: AnswerOf<K>) => ItemOutcome[]; resent: (error: ApiError) => boolean },
): Promise<ItemOutcome[]> =>
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, () =>
      auditedItems(
        context.store,
        () => actorOf(session, caller),
        ITEMIZED_CALLS[name],
        items,
        async () => outcomesOf((await exchangeApi(name, body, caller)).data),
        resent,
      ),
    ),
  );

/**
 * Performs an approved four-eyes action as its checker: the maker's exact request, never held
 * again, its audit entry naming both.
 */
export const performApproved = <K extends CallName>(
  request: Request,
  context: AppLoadContext,
  name: K,
  body: RequestOf<K>,
  fourEyes: FourEyes,
): Promise<AnswerOf<K>> =>
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, () =>
      auditedCall(context.store, () => actorOf(session, caller), name, body, () => exchangeApi(name, body, caller), fourEyes),
    ),
  );

/** A session's id in the audit trail: a hash of its upstream token, the same on every console instance. */
export const sessionIdOf = (token: string): string => createHash("sha256").update(`betdesk-audit:${token}`).digest("hex").slice(0, 16);

/** Who the trail names for this session: from the cookie; a cookie from before the trail asks the API. */
export async function actorOf(session: Session, caller: Caller): Promise<AuditActor> {
  const id = sessionIdOf(session.token);
  if (session.username !== undefined) return { operator: session.username, operatorRole: session.role ?? null, session: id };
  const admin = await callApi("currentAdmin", undefined, caller).catch(() => null);
  return { operator: admin?.username ?? "unknown", operatorRole: admin?.role ?? null, session: id };
}

/** A file the upstream API answers (a CSV), to stream on to the browser. */
export const downloadAsOperator = <K extends CallName>(
  request: Request,
  context: AppLoadContext,
  name: K,
  body: RequestOf<K>,
): Promise<Response> => asOperator(request, context, (caller) => downloadFromApi(name, body, caller));

/**
 * A stored image (a receipt, a slider image) streamed on to an <img>: the browser never holds the
 * token. No Cache-Control of its own: the app's no-store (express-app.server.ts) covers it like
 * every signed-in answer, where a second one made the header "no-store, private, max-age=3600".
 */
export async function imageAsOperator(request: Request, context: AppLoadContext, name: "upload" | "sliderImage", file: string) {
  const upstream = await orRouteError(downloadAsOperator(request, context, name, { name: file }));
  return new Response(upstream.body, { headers: { "Content-Type": upstream.headers.get("Content-Type") ?? "application/octet-stream" } });
}
