/**
 * Authenticator codes (RFC 6238 through `otpauth`): 30-second steps, 6 digits, HMAC-SHA-1, so
 * every authenticator app reads the key. A code matches its own step or one either side (clock
 * drift); which step it matched is what makes it single-use (the store keeps the last one).
 */
import { Secret, TOTP } from "otpauth";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code may come from. */
export const TOTP_DRIFT_STEPS = 1;
const ISSUER = "betdesk";

const totpOf = (secretBase32: string, digits = TOTP_DIGITS) =>
  new TOTP({ issuer: ISSUER, algorithm: "SHA1", digits, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

/** A new random key (160 bits, RFC 4226's recommendation), as the base32 text an app accepts. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// address the QR code carries. */
export const totpUri = (secretBase32: string, username: string): string => {
  const totp = totpOf(secretBase32);
  totp.label = username;
  return totp.toString();
};

/** The time-step a moment falls in. */
export const stepAt = (epochMs: number): number => Math.floor(epochMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of the step `epochMs` falls in. */
export const codeAt = (secretBase32: string, epochMs: number, digits = TOTP_DIGITS): string =>
  totpOf(secretBase32, digits).generate({ timestamp: epochMs });

/** The step a code belongs to (within the drift allowed around `epochMs`), or null: no match. */
export function matchedStep(secretBase32: string, code: string, epochMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: epochMs, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : stepAt(epochMs) + delta;
}
