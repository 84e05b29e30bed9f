/**
 * The /sessions screen on the server (issue 30, ADR 0010): the open console sessions (the
 * operator's own, everyone's for the super admin), ending one or all the others, and the super
 * admin's address allowlist, which sign-in checks before the password goes upstream.
 */
import type { AppLoadContext } from "@remix-run/node";
import { ROLE } from "../../protocol/wire";
import { isAddressIn } from "./addresses";
import { NO_SUBJECT, recordAudit } from "./audit.server";
import { ROLE_LABEL } from "./constants";
import { ALLOWLIST_ROLES, allowlistField, allowlistSchema, endOtherSessionsSchema, endSessionSchema } from "./forms/sessions";
import { readForm, refuse, runForm } from "./forms/run-form.server";
import { PERMISSION_DENIED, storeOf } from "./guards.server";
import { reauthNeeded } from "./mfa/reauth.server";
import { actorOf, endSession, endSessionsOf, requireSession, SESSION_LIMITS, type Session } from "./session.server";
import type { ConsoleStore } from "./store/schema";
import { lastRoleOf, listOpenSessions, readAllowlist, saveAllowlist } from "./store/sessions.server";
import { ApiError } from "./api.server";

const isSuperAdmin = (session: Session) => session.role === ROLE.superAdmin;

/** Why `address` may not sign in as `role`, or null when it may (a role without ranges: anywhere). */
export function allowlistRefusal(allowlist: ReadonlyMap<number, readonly string[]>, address: string, role: number): string | null {
  const ranges = allowlist.get(role) ?? [];
  if (ranges.length === 0 || isAddressIn(address, ranges)) return null;
  return `Sign-in refused: your address ${address || "(unknown)"} is not on the allowlist for ${ROLE_LABEL[role] ?? `role ${role}`}`;
}

/**
 * The allowlist's verdict before the password goes upstream, for the role this username last
 * signed in with; a username the console has not seen is refused here only when no role may sign
 * in from the address (its role is checked again once the API names it).
 */
export async function allowlistBeforeSignIn(store: ConsoleStore, username: string, address: string): Promise<string | null> {
  const allowlist = await readAllowlist(store);
  if (allowlist.size === 0) return null;
  const known = await lastRoleOf(store, username);
  if (known !== null) return allowlistRefusal(allowlist, address, known);
  const refusals = ALLOWLIST_ROLES.map((role) => allowlistRefusal(allowlist, address, role));
  return refusals.every(Boolean) ? `Sign-in refused: your address ${address || "(unknown)"} is not on the allowlist` : null;
}

export async function loadSessions(request: Request, context: AppLoadContext) {
  const session = await requireSession(request, context);
  const store = storeOf(context);
  const everyone = isSuperAdmin(session);
  const rows = await listOpenSessions(store, everyone ? null : session.username, SESSION_LIMITS);
  const allowlist = everyone ? await readAllowlist(store) : new Map<number, string[]>();
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      operator: row.operator,
      role: ROLE_LABEL[row.role] ?? String(row.role),
      factor: row.factor,
      createdAt: row.created_at.toISOString(),
      lastSeenAt: row.last_seen_at.toISOString(),
      address: row.address,
      browser: row.browser,
      current: row.id === session.id,
    })),
    everyone,
    /** The super admin's allowlist form: each role's ranges, one per line. */
    allowlist: everyone ? Object.fromEntries(ALLOWLIST_ROLES.map((role) => [allowlistField(role), (allowlist.get(role) ?? []).join("\n")])) : null,
    address: context.clientIp ?? "",
  };
}
export type SessionsData = Awaited<ReturnType<typeof loadSessions>>;
export type SessionRowView = SessionsData["sessions"][number];

export async function sessionsAction(request: Request, context: AppLoadContext) {
  const session = await requireSession(request, context);
  const store = storeOf(context);
  const form = Object.fromEntries(await readForm(request));
  const by = `ended by ${session.username} on /sessions`;
  if (form.intent === "endOthers") {
    return runForm(form, endOtherSessionsSchema, async () => {
      const ended = await endSessionsOf(context, session.username, { except: session.id, reason: by });
      return `Ended ${ended} other ${ended === 1 ? "session" : "sessions"}`;
    });
  }
  if (form.intent === "allowlist") {
    if (!isSuperAdmin(session)) return refuse(PERMISSION_DENIED);
    const asked = await reauthNeeded(request, context);
    if (asked) return asked;
    return runForm(form, allowlistSchema, async (saved) => {
      const after = new Map(ALLOWLIST_ROLES.map((role) => [role, saved[allowlistField(role)]] as const));
      const own = allowlistRefusal(after, context.clientIp ?? "", session.role);
      if (own) throw new ApiError(`Not saved: your own address ${context.clientIp ?? ""} would be outside the super admin's ranges`, 400);
      const before = Object.fromEntries(await readAllowlist(store));
      await saveAllowlist(store, after);
      await recordAudit(store, {
        ...(await actorOf(session)),
        ...NO_SUBJECT,
        call: "allowlist",
        kind: "settings",
        outcome: "ok",
        status: null,
        message: "Address allowlist saved",
        request: Object.fromEntries(after),
        answer: { before },
      });
      return "Address allowlist saved";
    });
  }
  return runForm(form, endSessionSchema, async ({ id }) => {
    const target = (await listOpenSessions(store, isSuperAdmin(session) ? null : session.username, SESSION_LIMITS)).find((row) => row.id === id);
    if (!target) throw new ApiError("That session has already ended, or is not yours", 404);
    await endSession(context, id, by);
    return target.id === session.id ? "Ended this session" : `Ended ${target.operator}'s session from ${target.address || "an unknown address"}`;
  });
}
