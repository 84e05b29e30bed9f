/**
 * Admin sign-in and sessions. A session is an opaque bearer token (only its sha256 is
 * stored) with a udid the console polls through /is-logouted/:udid.
 */
import { randomUUID } from "node:crypto";
import { WIRE_MESSAGE } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { badRequest, tooManyRequests, unauthorized } from "../../errors.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../../security/password.js";
import { FailureThrottle } from "../../security/throttle.js";
import { hashToken, newToken } from "../../security/token.js";
import { findAdminByUsername, findPasswordHash, updatePassword } from "../admins/repository.js";
import {
  createSession,
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
} as const;

export type Client = { ip: string; userAgent: string };

export type AuthServiceOptions = {
  db: Db;
  /** Seeded demo passwords are refused in production. */
  production: boolean;
};

export function createAuthService({ db, production }: AuthServiceOptions) {
  const perAccount = new FailureThrottle(LOGIN_LIMITS.perAccount);
  const perIp = new FailureThrottle(LOGIN_LIMITS.perIp);

  async function login(credentials: { username: string; password: string }, client: Client) {
    const accountKey = `${credentials.username.toLowerCase()}\n${client.ip}`;
    const waitMs = Math.max(perAccount.blockedFor(accountKey), perIp.blockedFor(client.ip));
    if (waitMs > 0) {
      const minutes = Math.ceil(waitMs / 60_000);
      throw tooManyRequests(
        `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
        waitMs / 1000,
      );
    }

    const admin = await findAdminByUsername(db, credentials.username);
    // Verify even for an unknown username so the answer takes the same time either way.
    const valid = await verifyPassword(credentials.password, admin?.password_hash ?? (await dummyPasswordHash()));
    if (!admin || !valid || (production && admin.demo_password)) {
      perAccount.fail(accountKey);
      perIp.fail(client.ip);
      throw unauthorized(AUTH_MESSAGE.invalidCredentials);
    }
    perAccount.clear(accountKey);

    const token = newToken();
    await db.transaction().execute(async (trx) => {
      await createSession(trx, {
        adminId: admin.id,
        udid: randomUUID(),
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
        ...client,
      });
      await recordLogin(trx, { kind: "admin", accountId: admin.id, ...client });
    });
    return { token };
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
    const current = await findPasswordHash(db, adminId);
    if (!current || !(await verifyPassword(input.curPassword, current))) {
      throw badRequest(AUTH_MESSAGE.wrongCurrentPassword);
    }
    const passwordHash = await hashPassword(input.password);
    await db.transaction().execute(async (trx) => {
      await updatePassword(trx, adminId, passwordHash);
      await revokeOtherSessions(trx, adminId, session.id);
    });
  }

  return { login, isLoggedOut, logout, changePassword };
}
