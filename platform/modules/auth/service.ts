/**
 * Admin sign-in and sessions. A session is an opaque bearer token (only its sha256 is
 * stored) with a udid the console polls through /is-logouted/:udid.
 */
import { randomUUID } from "node:crypto";
import { WIRE_MESSAGE } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { badRequest, forbidden, tooManyRequests, unauthorized } from "../../errors.js";
import { dummyPasswordHash, verifyPassword } from "../../security/password.js";
import { storePassword, type Revealer } from "../../security/reveal.js";
import { FailureThrottle } from "../../security/throttle.js";
import { hashToken, newToken } from "../../security/token.js";
import { findAdminByUsername, findPasswordHash, updatePassword, type AdminAccount } from "../admins/repository.js";
import {
  createSession,
  findLiveSession,
  findSessionByTokenHash,
  recordLogin,
  revokeOtherSessions,
  revokeSession,
  type SessionRef,
} from "./repository.js";

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const LOGIN_LIMITS = {
  /** Failures per (lower-cased username, IP): slows guessing one account. */
  perAccount: { limit: 5, windowMs: 15 * 60 * 1000 },
  /** Failures per IP over all usernames: slows spraying many accounts. */
  perIp: { limit: 30, windowMs: 15 * 60 * 1000 },
} as const;
export const AUTH_MESSAGE = {
  invalidCredentials: "Invalid username or password",
  wrongCurrentPassword: "Current password is incorrect",
  passwordChanged: "Password changed successfully",
  loginDisabled: "Login disabled",
} as const;

export type Client = { ip: string; userAgent: string };

/** A signed-in admin and the session its request carries. */
export type Authenticated = { admin: AdminAccount; session: SessionRef };

/** The admin scopes' token lookup (auth/access.ts): the admin and session behind a live token. */
export const signedInAdmin = (db: Db, tokenHash: string): Promise<Authenticated | undefined> => findLiveSession(db, tokenHash);

export type AuthServiceOptions = {
  db: Db;
  /** Seeded demo passwords are refused in production. */
  production: boolean;
  revealer: Revealer;
};

export type Credentials = { username: string; password: string };

/** 429 with Retry-After while `waitMs` > 0. */
function refuseWhileBlocked(what: "sign-in" | "current password", waitMs: number): void {
  if (waitMs <= 0) return;
  const minutes = Math.ceil(waitMs / 60_000);
  throw tooManyRequests(`Too many failed ${what} attempts. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, waitMs / 1000);
}

/**
 * Checks a sign-in against an account's hash under the rate limit, the same way for admins
 * and end users: 429 while limited, one 401 for an unknown username or a wrong password
 * (verified even for an unknown one, so both take the same time), demo passwords refused
 * in production. Answers the account.
 */
export function createSignInCheck(production: boolean, hashCost: number) {
  const perAccount = new FailureThrottle(LOGIN_LIMITS.perAccount);
  const perIp = new FailureThrottle(LOGIN_LIMITS.perIp);

  return async function check<Account extends { password_hash: string; demo_password: boolean }>(
    credentials: Credentials,
    client: Client,
    find: (username: string) => Promise<Account | undefined>,
  ): Promise<Account> {
    const accountKey = `${credentials.username.toLowerCase()}\n${client.ip}`;
    refuseWhileBlocked("sign-in", Math.max(perAccount.blockedFor(accountKey), perIp.blockedFor(client.ip)));

    const account = await find(credentials.username);
    const valid = await verifyPassword(credentials.password, account?.password_hash ?? (await dummyPasswordHash(hashCost)));
    if (!account || !valid || (production && account.demo_password)) {
      perAccount.fail(accountKey);
      perIp.fail(client.ip);
      throw unauthorized(AUTH_MESSAGE.invalidCredentials);
    }
    perAccount.clear(accountKey);
    return account;
  };
}

/**
 * Opens a session for an account that signed in, admin or end user: a new token whose hash
 * `store` keeps with the expiry, and the sign-in logged, in one transaction. Answers the token.
 */
export async function openSession(
  db: Db,
  account: { kind: "admin" | "user"; accountId: bigint },
  client: Client,
  store: (trx: Db, session: { tokenHash: string; expiresAt: Date }) => Promise<void>,
): Promise<{ token: string }> {
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    await store(trx, { tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
    await recordLogin(trx, { ...account, ...client });
  });
  return { token };
}

export function createAuthService({ db, production, revealer }: AuthServiceOptions) {
  const checkSignIn = createSignInCheck(production, revealer.hashCost);
  // Wrong current passwords per account: a stolen session guesses no faster than a sign-in.
  const currentPasswordFailures = new FailureThrottle(LOGIN_LIMITS.perAccount);

  async function login(credentials: Credentials, client: Client) {
    const admin = await checkSignIn(credentials, client, (username) => findAdminByUsername(db, username));
    // Checked after the password, so the switch is no oracle for guessing it.
    if (!admin.login_enabled) throw forbidden(AUTH_MESSAGE.loginDisabled);

    return openSession(db, { kind: "admin", accountId: admin.id }, client, (trx, session) =>
      createSession(trx, { adminId: admin.id, udid: randomUUID(), ...session, ...client }),
    );
  }

  /**
   * True once the session of `udid` is over. The token only has to name that session, even
   * a revoked or expired one: answering "yes, you are logged out" is the point of the call.
   */
  async function isLoggedOut(token: string | null, udid: string): Promise<boolean> {
    const session = token ? await findSessionByTokenHash(db, hashToken(token)) : undefined;
    if (!session || session.udid !== udid) throw unauthorized(WIRE_MESSAGE.adminNotFound);
    return session.revoked_at !== null || session.expires_at.getTime() <= Date.now();
  }

  async function logout(session: SessionRef): Promise<void> {
    await revokeSession(db, session.id);
  }

  /** Changes the caller's password and signs out its other sessions. */
  async function changePassword(
    adminId: bigint,
    session: SessionRef,
    input: { curPassword: string; password: string },
  ): Promise<void> {
    const key = String(adminId);
    refuseWhileBlocked("current password", currentPasswordFailures.blockedFor(key));
    const current = await findPasswordHash(db, adminId);
    if (!current || !(await verifyPassword(input.curPassword, current))) {
      currentPasswordFailures.fail(key);
      throw badRequest(AUTH_MESSAGE.wrongCurrentPassword);
    }
    currentPasswordFailures.clear(key);
    const stored = await storePassword(input.password, revealer);
    await db.transaction().execute(async (trx) => {
      await updatePassword(trx, adminId, stored);
      await revokeOtherSessions(trx, adminId, session.id);
    });
  }

  return { login, isLoggedOut, logout, changePassword };
}
