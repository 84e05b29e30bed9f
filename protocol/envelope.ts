/**
 * The envelope codec shared by the console and the platform.
 *
 * Byte-compatible with `CryptoJS.AES.encrypt(JSON.stringify(value), secret).toString()`:
 * OpenSSL "Salted__" format, AES-256-CBC, key and IV from EVP_BytesToKey (MD5, one round),
 * PKCS#7 padding, base64 text. Implemented on `node:crypto`, which is ~40x faster than
 * crypto-js and does not block the event loop for long; crypto-js is only the test oracle.
 * Server-only: the browser never holds the secret.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const MAGIC = Buffer.from("Salted__", "latin1");
const SALT_BYTES = 8;
const KEY_BYTES = 32;
const IV_BYTES = 16;
const BLOCK_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type EnvelopeErrorCode = "malformed" | "undecryptable" | "not-json";

/** A ciphertext that cannot be opened; `code` says why, the message is safe to log. */
export class EnvelopeError extends Error {
  override readonly name = "EnvelopeError";
  constructor(readonly code: EnvelopeErrorCode, message: string) {
    super(message);
  }
}

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration, as crypto-js derives a passphrase. */
function deriveKeyAndIv(secret: string, salt: Buffer): { key: Buffer; iv: Buffer } {
  const password = Buffer.from(secret, "utf8");
  const blocks: Buffer[] = [];
  let previous = Buffer.alloc(0);
  let length = 0;
  while (length < KEY_BYTES + IV_BYTES) {
    previous = createHash("md5").update(previous).update(password).update(salt).digest();
    blocks.push(previous);
    length += previous.length;
  }
  const material = Buffer.concat(blocks);
  return { key: material.subarray(0, KEY_BYTES), iv: material.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES) };
}

/** Encrypts any JSON-serialisable value into envelope text. */
export function seal(value: unknown, secret: string): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("The envelope carries JSON values only");
  const salt = randomBytes(SALT_BYTES);
  const { key, iv } = deriveKeyAndIv(secret, salt);
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([MAGIC, salt, cipher.update(json, "utf8"), cipher.final()]).toString("base64");
}

/** Decrypts envelope text and parses its JSON. Throws `EnvelopeError`, never anything else. */
export function open(ciphertext: unknown, secret: string): unknown {
  if (typeof ciphertext !== "string" || ciphertext.length === 0 || !BASE64.test(ciphertext)) {
    throw new EnvelopeError("malformed", "The payload is not base64 text");
  }
  const raw = Buffer.from(ciphertext, "base64");
  const body = raw.subarray(MAGIC.length + SALT_BYTES);
  if (
    raw.length < MAGIC.length + SALT_BYTES + BLOCK_BYTES ||
    !raw.subarray(0, MAGIC.length).equals(MAGIC) ||
    body.length % BLOCK_BYTES !== 0
  ) {
    throw new EnvelopeError("malformed", "The payload is not an OpenSSL salted ciphertext");
  }
  const { key, iv } = deriveKeyAndIv(secret, raw.subarray(MAGIC.length, MAGIC.length + SALT_BYTES));
  let plain: string;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, iv);
    const bytes = Buffer.concat([decipher.update(body), decipher.final()]);
    plain = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new EnvelopeError("undecryptable", "The payload cannot be decrypted with this key");
  }
  try {
    return JSON.parse(plain);
  } catch {
    throw new EnvelopeError("not-json", "The decrypted payload is not JSON");
  }
}
