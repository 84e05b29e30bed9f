/**
 * AES-256-GCM under keys derived from SESSION_SECRET (ADR 0010): the session cookie's value and the
 * upstream token kept in the store. Each use derives its own key (`purpose`), so a value sealed for
 * one never opens as the other. SESSION_SECRET may list several secrets: the first seals, all open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "./env.server";

export type SealPurpose = "session" | "session-store";

const keysOf = (purpose: SealPurpose) => env.sessionSecrets.map((secret) => createHash("sha256").update(`betdesk-${purpose}:${secret}`).digest());
const KEYS: Record<SealPurpose, Buffer[]> = { session: keysOf("session"), "session-store": keysOf("session-store") };

/** `bound`: authenticated but not stored (a row's id), so a sealed value moved to another row does not open. */
export function seal(purpose: SealPurpose, text: string, bound = ""): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", KEYS[purpose][0]!, iv).setAAD(Buffer.from(bound));
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The sealed text, or null when no key opens it (tampered, or sealed under a secret since removed). */
export function unseal(purpose: SealPurpose, sealed: string, bound = ""): string | null {
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < 29) return null;
  for (const key of KEYS[purpose]) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12)).setAAD(Buffer.from(bound));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      // Not this key (or tampered): try the next one.
    }
  }
  return null;
}
