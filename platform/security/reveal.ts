/**
 * Sealed password copies: the one place a password is stored reversibly, so the super
 * admin can read an account's password back (docs/product.md §2.5). AES-256-GCM under a key derived
 * from PASSWORD_REVEAL_KEY (or API_SECRET); text `v1.<iv>.<tag>.<ciphertext>`, base64url.
 * Sign-in never uses it: it checks the scrypt hash, made at PASSWORD_HASH_COST.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Env } from "../env.js";
import { hashPassword } from "./password.js";

/** How a chosen password is kept: the key of its sealed copy, and the cost of its hash. */
export type Revealer = {
  /** log2 of scrypt's N for new hashes (PASSWORD_HASH_COST). */
  hashCost: number;
  seal(password: string): string;
  /** The password, or null when the text was sealed under another key or is damaged. */
  open(sealed: string): string | null;
};

const VERSION = "v1";
const IV_BYTES = 12;

export function createRevealer(env: Pick<Env, "API_SECRET" | "PASSWORD_REVEAL_KEY" | "PASSWORD_HASH_COST">): Revealer {
  const secret = env.PASSWORD_REVEAL_KEY ?? env.API_SECRET;
  // A distinct info string keeps this key unrelated to any other use of the same secret.
  const key = Buffer.from(hkdfSync("sha256", secret, "betdesk", "password-reveal/v1", 32));

  return {
    hashCost: env.PASSWORD_HASH_COST,
    seal(password) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(password, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

/** What the database keeps of a chosen password: the hash for sign-in, the sealed copy for the reveal. */
export type StoredPassword = { hash: string; sealed: string };

export async function storePassword(password: string, revealer: Revealer): Promise<StoredPassword> {
  return { hash: await hashPassword(password, revealer.hashCost), sealed: revealer.seal(password) };
}
