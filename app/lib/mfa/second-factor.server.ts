/**
 * The console's second factor (issue 30): which operators must give one (the super admin's
 * policy), what each has enrolled, and checking an attempt: an authenticator code (once per
 * time-step), a recovery code (once), or a passkey, every attempt counted against the operator
 * and the address so a guesser cools down after five failures, on every console instance.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { ROLE } from "../../../protocol/wire";
import { NO_SUBJECT, recordAudit, type AuditActor } from "../audit.server";
import type { ConsoleCall } from "../audit-labels";
import { env } from "../env.server";
import type { FactorAnswer } from "../forms/second-factor";
import {
  acceptTotpStep,
  clearFailures,
  countFailure,
  deleteFactors,
  factorsOf,
  lockedKeys,
  readPolicyRoles,
  readTotp,
  replaceRecoveryCodes,
  spendRecoveryCode,
  startTotp,
  unusedRecoveryCodes,
} from "../store/second-factor.server";
import type { ConsoleStore } from "../store/schema";
import { checkPasskey, relyingPartyOf } from "./passkeys.server";
import { seal, unseal } from "./seal.server";
import { matchedStep, newTotpSecret, totpUri } from "./totp.server";

/** What completed a sign-in or a re-authentication. */
export type Factor = "totp" | "passkey" | "recovery";

/** Failures per operator and per address before a cool-down; the window they are counted in; the cool-down. */
export const ATTEMPT_RULE = { limit: 5, windowSeconds: 15 * 60, coolDownSeconds: 5 * 60 };
export const RECOVERY_CODE_COUNT = 10;

export const ALL_ROLES: readonly number[] = Object.values(ROLE);

/** The roles that must use a second factor: the super admin's choice, else every role in production and none otherwise. */
export async function requiredRoles(store: ConsoleStore): Promise<number[]> {
  return (await readPolicyRoles(store)) ?? (env.NODE_ENV === "production" ? [...ALL_ROLES] : []);
}

export type Enrolment = Awaited<ReturnType<typeof factorsOf>> & { enrolled: boolean };

export async function enrolmentOf(store: ConsoleStore, username: string): Promise<Enrolment> {
  const factors = await factorsOf(store, username);
  return { ...factors, enrolled: factors.totp || factors.passkeys > 0 };
}

// --- Attempts ------------------------------------------------------------------------------

export type Attempter = { username: string; address: string | undefined };

const attemptKeys = ({ username, address }: Attempter) => [`operator:${username}`, ...(address ? [`address:${address}`] : [])];

/** Why an attempt is refused before it is checked (a key cooling down), or null. */
async function coolingDown(store: ConsoleStore, who: Attempter): Promise<string | null> {
  const locked = await lockedKeys(store, attemptKeys(who));
  if (locked.length === 0) return null;
  const until = Math.max(...locked.map((row) => row.locked_until!.getTime()));
  const minutes = Math.max(1, Math.ceil((until - Date.now()) / 60_000));
  return `Too many wrong codes: try again in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export type Checked = { ok: true; factor: Factor } | { ok: false; message: string };

/**
 * Runs one attempt under the rate limit: refused at once while the operator or the address cools
 * down; a failure counts against both, a success clears the operator's count.
 */
export async function attempt(store: ConsoleStore, who: Attempter, factor: Factor, check: () => Promise<string | null>): Promise<Checked> {
  const cooling = await coolingDown(store, who);
  if (cooling) return { ok: false, message: cooling };
  const refusal = await check();
  if (refusal) {
    await countFailure(store, attemptKeys(who), ATTEMPT_RULE);
    return { ok: false, message: refusal };
  }
  await clearFailures(store, `operator:${who.username}`);
  return { ok: true, factor };
}

// --- Authenticator codes -------------------------------------------------------------------

export const WRONG_CODE = "That code is not right";
export const USED_CODE = "That code was used already: wait for the next one";

/** Checks a code against the operator's key (confirmed or, while enrolling, not): null when accepted. */
export async function checkTotp(store: ConsoleStore, username: string, code: string, now = Date.now()): Promise<string | null> {
  const row = await readTotp(store, username);
  if (!row) return WRONG_CODE;
  const step = matchedStep(unseal(row.secret_sealed), code.replace(/\s/g, ""), now);
  if (step === null) return WRONG_CODE;
  return (await acceptTotpStep(store, username, step)) ? null : USED_CODE;
}

/** A new key for the operator to confirm with one code: the key as text, and its QR code (an SVG data URL). */
export async function startTotpEnrolment(store: ConsoleStore, username: string): Promise<{ key: string; qr: string } | null> {
  const key = newTotpSecret();
  if (!(await startTotp(store, username, seal(key)))) return null;
  const svg = await QRCode.toString(totpUri(key, username), { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { key, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

// --- Recovery codes ------------------------------------------------------------------------

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** 12 characters of 31 (about 59 bits): written as xxxx-xxxx-xxxx. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(12)].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join("")).join("-");
}

const normalRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");
const recoveryHash = (salt: string, code: string) => createHash("sha256").update(`${salt}:${normalRecovery(code)}`).digest("hex");

/** Ten new codes (the old ones stop working), to show once; the store keeps their salted hashes. */
export async function issueRecoveryCodes(store: ConsoleStore, username: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(
    store,
    username,
    codes.map((code) => {
      const salt = randomBytes(16).toString("hex");
      return { salt, codeHash: recoveryHash(salt, code) };
    }),
  );
  return codes;
}

/** Spends a recovery code: null when accepted (once). */
export async function checkRecoveryCode(store: ConsoleStore, username: string, code: string): Promise<string | null> {
  for (const row of await unusedRecoveryCodes(store, username)) {
    const hash = recoveryHash(row.salt, code);
    if (timingSafeEqual(Buffer.from(hash), Buffer.from(row.code_hash))) {
      return (await spendRecoveryCode(store, username, hash)) ? null : "That recovery code was used already";
    }
  }
  return "That recovery code is not right (or was used already)";
}

// --- Any factor ----------------------------------------------------------------------------

/** Checks the factor given, under the rate limit; `challenge` is the passkey ceremony's. */
export function checkGiven(store: ConsoleStore, request: Request, who: Attempter, answer: FactorAnswer, challenge: string | null): Promise<Checked> {
  switch (answer.method) {
    case "totp":
      return attempt(store, who, "totp", () => checkTotp(store, who.username, answer.code));
    case "recovery":
      return attempt(store, who, "recovery", () => checkRecoveryCode(store, who.username, answer.code));
    case "passkey":
      return attempt(store, who, "passkey", () => checkPasskey(store, relyingPartyOf(request), who.username, answer.response, challenge));
  }
}

/** An enrolment, a reset or a policy change in the audit trail (nothing upstream: the console's own). */
export const recordSecurity = (store: ConsoleStore, actor: AuditActor, call: ConsoleCall, message: string, request: unknown = null): Promise<void> =>
  recordAudit(store, { ...actor, call, kind: "security", ...NO_SUBJECT, outcome: "ok", status: null, message, request, answer: null });

export const RESET_REASON = "second factor reset";

/**
 * Forgets every factor of `username` (they enrol again at their next sign-in), ends their sessions
 * (`endSessions`, answering how many) and audits it as `actor`'s.
 */
export async function resetFactors(store: ConsoleStore, username: string, actor: AuditActor, endSessions: () => Promise<number>): Promise<void> {
  await deleteFactors(store, username);
  const ended = await endSessions();
  await recordSecurity(store, actor, "secondFactorReset", `Second factor of ${username} reset; ${ended} session(s) ended`, { username });
}
