/**
 * The envelope codec shared by the console and the platform.
 *
 * Byte-compatible with `CryptoJS.AES.encrypt(JSON.stringify(value), secret).toString()`:
 * OpenSSL "Salted__" format, AES-256-CBC, key and IV from EVP_BytesToKey (MD5, one round),
 * PKCS#7 padding, base64 text. Implemented on `node:crypto`, which is 20x+ faster than
 * crypto-js and does not block the event loop for long; crypto-js is only the test oracle.
 * Server-only: the browser never holds the secret.
 *
 * Per message, beyond JSON and the cipher itself, it does one base64 pass each way, three MD5
 * blocks and no copy of the body but the ciphertext's into its header (bench/envelope.bench.ts).
 */
import { createCipheriv, createDecipheriv, hash, randomFillSync } from "node:crypto";

const MAGIC = Buffer.from("Salted__", "latin1");
const SALT_BYTES = 8;
const HEADER_BYTES = MAGIC.length + SALT_BYTES;
const KEY_BYTES = 32;
const IV_BYTES = 16;
const BLOCK_BYTES = 16;
const MD5_BYTES = 16;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export type EnvelopeErrorCode = "malformed" | "undecryptable" | "not-json";

/** A ciphertext that cannot be opened; `code` says why, the message is safe to log. */
export class EnvelopeError extends Error {
  override readonly name = "EnvelopeError";
  constructor(readonly code: EnvelopeErrorCode, message: string) {
    super(message);
  }
}

// Salts come from a pool refilled from the CSPRNG 512 at a time: one randomBytes call per
// message cost more than the three MD5 blocks. A salt is public and used once either way.
const saltPool = Buffer.alloc(SALT_BYTES * 512);
let saltOffset = saltPool.length;

function nextSalt(): Buffer {
  if (saltOffset === saltPool.length) {
    randomFillSync(saltPool);
    saltOffset = 0;
  }
  saltOffset += SALT_BYTES;
  return saltPool.subarray(saltOffset - SALT_BYTES, saltOffset);
}

// EVP_BytesToKey hashes previous block ‖ password ‖ salt; that input lives in one buffer, built
// once per secret, so each block is a single MD5 call over it (the first skips the empty block).
let scratchSecret: string | undefined;
let scratch = Buffer.alloc(0);

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration, as crypto-js derives a passphrase: key ‖ IV. */
function deriveKeyAndIv(secret: string, salt: Buffer): { key: Buffer; iv: Buffer } {
  if (secret !== scratchSecret) {
    const password = Buffer.from(secret, "utf8");
    scratch = Buffer.alloc(MD5_BYTES + password.length + SALT_BYTES);
    password.copy(scratch, MD5_BYTES);
    scratchSecret = secret;
  }
  salt.copy(scratch, scratch.length - SALT_BYTES);
  // One-shot hash(): a Hash object per block cost more than the MD5 itself, garbage included.
  const first = hash("md5", scratch.subarray(MD5_BYTES), "buffer");
  first.copy(scratch);
  const second = hash("md5", scratch, "buffer");
  second.copy(scratch);
  const iv = hash("md5", scratch, "buffer");
  return { key: Buffer.concat([first, second], KEY_BYTES), iv: iv.subarray(0, IV_BYTES) };
}

/** Encrypts any JSON-serialisable value into envelope text. */
export function seal(value: unknown, secret: string): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("The envelope carries JSON values only");
  const salt = nextSalt();
  const { key, iv } = deriveKeyAndIv(secret, salt);
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([MAGIC, salt, cipher.update(json, "utf8"), cipher.final()]).toString("base64");
}

/**
 * Whether `text` is the base64 of `raw` as an encoder writes it (padding optional): re-encoding
 * is a few times cheaper than matching the text against the alphabet, and Node's decoder alone
 * would skip stray characters and take the URL-safe alphabet too.
 */
function isBase64Of(raw: Buffer, text: string): boolean {
  const canonical = raw.toString("base64");
  if (canonical === text) return true;
  const unpadded = text.length % 4;
  return unpadded > 1 && canonical.length === text.length + 4 - unpadded && canonical.startsWith(text);
}

/** Decrypts envelope text and parses its JSON. Throws `EnvelopeError`, never anything else. */
export function open(ciphertext: unknown, secret: string): unknown {
  const raw = typeof ciphertext === "string" ? Buffer.from(ciphertext, "base64") : undefined;
  if (raw === undefined || raw.length === 0 || !isBase64Of(raw, ciphertext as string)) {
    throw new EnvelopeError("malformed", "The payload is not base64 text");
  }
  const body = raw.subarray(HEADER_BYTES);
  if (raw.length < HEADER_BYTES + BLOCK_BYTES || !raw.subarray(0, MAGIC.length).equals(MAGIC) || body.length % BLOCK_BYTES !== 0) {
    throw new EnvelopeError("malformed", "The payload is not an OpenSSL salted ciphertext");
  }
  const { key, iv } = deriveKeyAndIv(secret, raw.subarray(MAGIC.length, HEADER_BYTES));
  let plain: string;
  try {
    // The padding is checked here rather than by final(), which would hand back the last block
    // apart and cost a copy of the whole body to join them.
    const bytes = createDecipheriv("aes-256-cbc", key, iv).setAutoPadding(false).update(body);
    const padding = bytes[bytes.length - 1]!;
    if (padding === 0 || padding > BLOCK_BYTES) throw new Error("bad padding");
    for (let i = bytes.length - padding; i < bytes.length; i++) {
      if (bytes[i] !== padding) throw new Error("bad padding");
    }
    plain = UTF8.decode(bytes.subarray(0, bytes.length - padding));
  } catch {
    throw new EnvelopeError("undecryptable", "The payload cannot be decrypted with this key");
  }
  try {
    return JSON.parse(plain);
  } catch {
    throw new EnvelopeError("not-json", "The decrypted payload is not JSON");
  }
}
