/**
 * The console's session (ADR 0010): a record in the console's store, one per sign-in, that every
 * console instance reads, so a session ended anywhere is refused everywhere on its next request.
 * The browser holds only an httpOnly, SameSite cookie whose value is a random secret, sealed
 * (AES-256-GCM); the store keeps the secret's hash, and the upstream token and udid sealed too.
 */
import { capabilities } from "./capabilities.server";
import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import Bowser from "bowser";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { AnswerOf, CallName, RequestOf } from "./api-routes.server";
import { ApiError, callApi, downloadFromApi, exchangeApi, type Caller } from "./api.server";
import { auditedCall, auditedItems, ITEMIZED_CALLS, recordSession, type AuditActor, type AuditLabel, type FourEyes, type ItemOutcome } from "./audit.server";
import { env } from "./env.server";
import { performUnlessHeld } from "./four-eyes.server";
import { orRouteError } from "./route-errors.server";
import { seal, unseal } from "./session-seal.server";
import { endSessions, findSession, insertSession, touchSession, type SessionRow, type SessionsToEnd } from "./store/sessions.server";
import type { ConsoleStore } from "./store/schema";
import { requestStore } from "./store/request-store.server";
import { noteOperator } from "./observability/context.server";

/** The idle timeout and absolute lifetime (env SESSION_IDLE_MINUTES, SESSION_LIFETIME_HOURS), in seconds. */
export const SESSION_LIMITS = { idleSeconds: env.SESSION_IDLE_MINUTES * 60, lifetimeSeconds: env.SESSION_LIFETIME_HOURS * 60 * 60 };

/** Last seen is written at most this often, not on every request; the idle timeout is exact to within it. */
const TOUCH_EVERY_MS = 60_000;

/** What a signed-in request knows: the upstream credentials and who the record says signed in. */
export type Session = {
  /** The record's public id: the /sessions screen and the audit trail name the session by it. */
  id: string;
  token: string;
  udid: string;
  username: string;
  role: number;
  /** The factor the operator last gave ('password', 'totp', 'passkey', 'recovery'), and when. */
  factor: string;
  factorAt: Date;
};

/** What beginSession records: the upstream sign-in's answer and the factor that completed it. */
export type SessionStart = Pick<Session, "token" | "udid" | "username" | "role" | "factor">;

const upstreamSchema = z.object({ token: z.string().min(1), udid: z.string().min(1) });

const cookie = createCookie("__betdesk", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.NODE_ENV === "production",
  path: "/",
  maxAge: SESSION_LIMITS.lifetimeSeconds,
});

const hashOf = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** The operator's browser as the /sessions screen names it: "Chrome 126.0.0.0". */
function browserOf(request: Request): string {
  const agent = request.headers.get("User-Agent");
  // Bowser throws on an empty agent.
  const { name, version } = agent ? Bowser.parse(agent).browser : {};
  return [name, version].filter(Boolean).join(" ") || "unknown";
}

/** The store sessions live in: the load context's, else the one of the request being answered. */
const storeOf = (context?: AppLoadContext): ConsoleStore | undefined => context?.store ?? requestStore();

function openStoreOf(context: AppLoadContext): ConsoleStore {
  const store = storeOf(context);
  if (!store) throw new Response("The console's store is not open", { status: 503 });
  return store;
}

/**
 * Starts a console session once the operator has given every factor the sign-in needs: writes its
 * record, records the sign-in in the audit trail, and answers the Set-Cookie header to send.
 */
export async function beginSession(request: Request, context: AppLoadContext, start: SessionStart): Promise<string> {
  const store = openStoreOf(context);
  const secret = randomBytes(32).toString("base64url");
  const id = randomBytes(8).toString("hex");
  await insertSession(store, {
    id,
    secret_hash: hashOf(secret),
    operator: start.username,
    role: start.role,
    factor: start.factor,
    address: context.clientIp ?? "",
    browser: browserOf(request),
    upstream: seal("session-store", JSON.stringify({ token: start.token, udid: start.udid }), id),
  });
  await recordSession(store, { operator: start.username, operatorRole: start.role, session: id }, "signIn", {
    outcome: "ok",
    status: 200,
    message: `Signed in with ${start.factor}`,
  });
  return cookie.serialize(seal("session", secret));
}

const ENDED_REASON = { idle: "idle timeout", expired: "lifetime over" } as const;

/** The open session a record holds, or null; ends (and audits) one found idle or past its lifetime. */
async function sessionOf(store: ConsoleStore, row: SessionRow & { now: Date }): Promise<Session | null> {
  if (row.ended_at) return null;
  const now = row.now.getTime();
  const over =
    now - row.created_at.getTime() >= SESSION_LIMITS.lifetimeSeconds * 1000 ? ENDED_REASON.expired
    : now - row.last_seen_at.getTime() >= SESSION_LIMITS.idleSeconds * 1000 ? ENDED_REASON.idle
    : null;
  if (over) {
    await endAndAudit(store, { id: row.id }, over);
    return null;
  }
  const upstream = upstreamSchema.safeParse(JSON.parse(unseal("session-store", row.upstream, row.id) ?? "null"));
  if (!upstream.success) return null;
  if (now - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) await touchSession(store, row.id);
  return { id: row.id, ...upstream.data, username: row.operator, role: row.role, factor: row.factor, factorAt: row.factor_at };
}

/** Checked once per request: a settlement chunk makes a call per bet, each asking for the session. */
const sessionsRead = new WeakMap<Request, Promise<Session | null>>();

/** The request's open session: one indexed read of the store (and a write of last seen at most once a minute). */
export function readSession(request: Request, context?: AppLoadContext): Promise<Session | null> {
  let session = sessionsRead.get(request);
  if (!session) {
    session = readCookieSession(request.headers.get("Cookie"), storeOf(context));
    sessionsRead.set(request, session);
  }
  return session;
}

/** The open session a Cookie header names (the realtime relay's handshake has no Remix request). */
export async function readCookieSession(cookieHeader: string | null, store: ConsoleStore | undefined): Promise<Session | null> {
  const value: unknown = await cookie.parse(cookieHeader);
  const secret = typeof value === "string" ? unseal("session", value) : null;
  if (!secret || !store) return null;
  const row = await findSession(store, hashOf(secret));
  return row ? sessionOf(store, row) : null;
}

export const destroySession = (): Promise<string> => cookie.serialize("", { maxAge: 0 });

/** Redirect to the login screen, clearing the cookie, remembering where the operator was going. */
export async function signedOutRedirect(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const back = url.pathname === "/" ? "" : `?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
  return redirect(`/login${back}`, { headers: { "Set-Cookie": await destroySession() } });
}

/** The open session, or a thrown redirect to /login (an unknown, ended, idle or expired one alike). */
export async function requireSession(request: Request, context?: AppLoadContext): Promise<Session> {
  const session = await readSession(request, context);
  if (!session) throw await signedOutRedirect(request);
  // The request's log line names who made it.
  noteOperator(session.username);
  return session;
}

/**
 * Ends sessions for good and records each in the audit trail, naming `reason`; the upstream token
 * of each is revoked too where the API can (an extension), whatever it answers.
 */
async function endAndAudit(store: ConsoleStore, which: SessionsToEnd, reason: string, call: "signOut" | "sessionEnded" = "sessionEnded"): Promise<number> {
  const ended = await endSessions(store, which, reason);
  for (const row of ended) {
    const actor = { operator: row.operator, operatorRole: row.role, session: row.id };
    await recordSession(store, actor, call, { outcome: "ok", status: null, message: `Session ended: ${reason}` });
    const upstream = upstreamSchema.safeParse(JSON.parse(unseal("session-store", row.upstream, row.id) ?? "null"));
    if (upstream.success) await revokeUpstream(upstream.data.token);
  }
  return ended.length;
}

/** Revokes an upstream token where the API can (an extension: an API without it is not asked again), whatever it answers. */
export const revokeUpstream = (token: string): Promise<unknown> =>
  capabilities.withExtension("logout", () => callApi("logout", {}, { token })).catch(() => undefined);

/** Ends one session (`e` on /sessions); answers whether it was open. */
export const endSession = async (context: AppLoadContext, id: string, reason: string): Promise<boolean> =>
  (await endAndAudit(openStoreOf(context), { id }, reason)) > 0;

/** Sign-out: the session ends for good, so its cookie replayed is refused. */
export const signOutSession = async (context: AppLoadContext, session: Session): Promise<void> =>
  void (await endAndAudit(openStoreOf(context), { id: session.id }, "signed out", "signOut"));

/**
 * Ends every open session of `username` but `except` (a password change, a second factor reset,
 * `E` on /sessions); answers how many it ended.
 */
export const endSessionsOf = (context: AppLoadContext, username: string, { except, reason }: { except?: string; reason: string }): Promise<number> =>
  endAndAudit(openStoreOf(context), { operator: username, except }, reason);

/** The operator's address and browser, forwarded so the platform's logs and limits see the person. */
export function callerOf(request: Request, context: AppLoadContext, token?: string): Caller {
  return { token, clientIp: context.clientIp, userAgent: request.headers.get("User-Agent") ?? undefined };
}

/**
 * Runs upstream work as the signed-in operator. An answer that ends the session (`Admin not
 * found`) becomes a thrown redirect to /login that also clears the cookie.
 */
async function asOperator<T>(request: Request, context: AppLoadContext, work: (caller: Caller, session: Session) => Promise<T>): Promise<T> {
  const session = await requireSession(request, context);
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
  label?: AuditLabel,
): Promise<AnswerOf<K>> =>
  // An extension call's bare 404 teaches what this API lacks, and a call known missing is refused
  // at once, saying so (capabilities.server.ts); a spec call is simply made.
  // Above a four-eyes threshold the call waits for a second operator instead (four-eyes.server.ts).
  // A state-changing call is recorded in the audit trail with its answer, its account named by
  // `label` where the call carries only its id (audit.server.ts).
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, async () => {
      const actor = () => actorOf(session, caller);
      return performUnlessHeld(context.store, actor, caller, name, body, label, () =>
        auditedCall(context.store, actor, name, body, () => exchangeApi(name, body, caller), { label }),
      );
    }),
  );

/**
 * A call made of single calls' requests (audit.server.ts ITEMIZED_CALLS: `/settle-bets` of
 * `/settel-bet`s), as the operator: `outcomesOf` reads each item's outcome from the answer, in the
 * order of `items`, and the trail records one entry per item as its single call, unless the call
 * failed in a way after which the caller sends the items on their own (`resent`). Never held: the
 * console sends one only for work already confirmed (a settlement job's chunk). `lane` holds the
 * exchange alone, not the trail's entries after it (a job's shared lanes, job-lanes.server.ts).
 */
export const callItemsAsOperator = <K extends keyof typeof ITEMIZED_CALLS>(
  request: Request,
  context: AppLoadContext,
  name: K,
  items: readonly RequestOf<(typeof ITEMIZED_CALLS)[K]>[],
  body: RequestOf<K>,
  {
    outcomesOf,
    resent,
    lane = (exchange) => exchange(),
  }: { outcomesOf: (answer: AnswerOf<K>) => ItemOutcome[]; resent: (error: ApiError) => boolean; lane?: <T>(exchange: () => Promise<T>) => Promise<T> },
): Promise<ItemOutcome[]> =>
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, () =>
      auditedItems(
        context.store,
        () => actorOf(session, caller),
        ITEMIZED_CALLS[name],
        items,
        async () => outcomesOf((await lane(() => exchangeApi(name, body, caller))).data),
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
  label?: AuditLabel,
): Promise<AnswerOf<K>> =>
  asOperator(request, context, (caller, session) =>
    capabilities.withExtension(name, () =>
      auditedCall(context.store, () => actorOf(session, caller), name, body, () => exchangeApi(name, body, caller), { fourEyes, label }),
    ),
  );

/**
 * Who the trail names for this session: its operator and role as its record has them, and its id.
 * (Callers still pass the caller, once needed to ask the API for a cookie from before the trail.)
 */
export const actorOf = async (session: Session, _caller?: Caller): Promise<AuditActor> => ({
  operator: session.username,
  operatorRole: session.role,
  session: session.id,
});

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
