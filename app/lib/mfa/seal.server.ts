/**
 * The second factor's secrets at rest (issue 30): an authenticator key, a pending sign-in's
 * upstream token. AES-256-GCM under a key derived from MFA_KEY, so the store alone (a backup, a
 * read replica) opens none of them; GCM's tag refuses an edited value.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "../env.server";

const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (secret: string) => createHash("sha256").update(`betdesk-second-factor:${secret}`).digest();

export function seal(text: string, secret = env.MFA_KEY): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The sealed text; throws when the key is not the one that sealed it or the value was edited. */
export function unseal(sealed: string, secret = env.MFA_KEY): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
