/**
 * The envelope codec shared by the console and the platform.
 *
 * Byte-compatible with `CryptoJS.AES.encrypt(JSON.stringify(value), secret).toString()`:
 * OpenSSL "Salted__" format, AES-256-CBC, key and IV from EVP_BytesToKey (MD5, one round),
 * PKCS#7 padding, base64 text. Implemented on `node:crypto`, which is 20x+ faster than
 * crypto-js and does not block the event loop for long; crypto-js is only the test oracle.
 * Server-only: the browser never holds the secret.
 *
 * Per message, beyond JSON and the cipher itself, it does one base64 pass, three MD5 blocks,
 * one UTF-8 pass and, to seal, one copy of the ciphertext behind its header in a buffer kept
 * between calls; each step's share is in bench/envelope.bench.ts.
 */
import { isAscii } from "node:buffer";
import { createCipheriv, createDecipheriv, randomFillSync } from "node:crypto";
import { md5Into } from "./md5";

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
// message cost more than the key derivation. A salt is public and used once either way.
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
// once per secret, and the three blocks land side by side in `derived` as key ‖ IV. No cache by
// salt: every message brings a fresh one, so a cache would only ever miss.
let kdfSecret: string | undefined;
let kdfInput = Buffer.alloc(0);
/** password ‖ salt: the first block's input, without a previous block. */
let kdfFirst = kdfInput;
const derived = Buffer.alloc(3 * MD5_BYTES);
const key = derived.subarray(0, KEY_BYTES);
const iv = derived.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES);

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration, as crypto-js derives a passphrase, into `key` and `iv`. */
function deriveKeyAndIv(secret: string, salt: Uint8Array): void {
  if (secret !== kdfSecret) {
    const password = Buffer.from(secret, "utf8");
    kdfInput = Buffer.alloc(MD5_BYTES + password.length + SALT_BYTES);
    password.copy(kdfInput, MD5_BYTES);
    kdfFirst = kdfInput.subarray(MD5_BYTES);
    kdfSecret = secret;
  }
  kdfInput.set(salt, kdfInput.length - SALT_BYTES);
  md5Into(kdfFirst, derived, 0);
  for (let block = 1; block < 3; block++) {
    derived.copy(kdfInput, 0, (block - 1) * MD5_BYTES, block * MD5_BYTES);
    md5Into(kdfInput, derived, block * MD5_BYTES);
  }
}

// Plaintext on the way in and base64-decoded bytes on the way out go through one buffer kept
// between calls (seal and open are synchronous and return nothing that points into it): a fresh
// buffer per message cost more than the copy into it for pages of users, in allocation and
// garbage. Messages too large for it get a buffer of their own, so it never holds more than this.
const SCRATCH_LIMIT = 1 << 20;
let scratch = Buffer.allocUnsafe(64 * 1024);

function scratchOf(bytes: number): Buffer {
  if (bytes <= scratch.length) return scratch;
  if (bytes > SCRATCH_LIMIT) return Buffer.allocUnsafe(bytes);
  scratch = Buffer.allocUnsafe(Math.min(SCRATCH_LIMIT, Math.max(bytes, 2 * scratch.length)));
  return scratch;
}

/** Encrypts any JSON-serialisable value into envelope text. */
export function seal(value: unknown, secret: string): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("The envelope carries JSON values only");
  // A UTF-16 code unit takes at most 3 bytes of UTF-8; one more block for the padding, and room
  // for the header in front of the ciphertext when it takes the plaintext's place.
  const plain = scratchOf(3 * json.length + BLOCK_BYTES + HEADER_BYTES);
  const length = plain.write(json, 0, "utf8");
  const padding = BLOCK_BYTES - (length % BLOCK_BYTES);
  plain.fill(padding, length, length + padding);
  const salt = nextSalt();
  deriveKeyAndIv(secret, salt);
  const body = createCipheriv("aes-256-cbc", key, iv).setAutoPadding(false).update(plain.subarray(0, length + padding));
  MAGIC.copy(plain);
  salt.copy(plain, MAGIC.length);
  body.copy(plain, HEADER_BYTES);
  return plain.toString("base64", 0, HEADER_BYTES + body.length);
}

/**
 * Decodes canonical base64 (padding optional) into `scratchOf`, or undefined. Node's decoder
 * alone would skip stray characters, read the URL-safe alphabet and take a character beyond
 * Latin-1 by its low byte. The first leaves the bytes short of what the length promises, the
 * others are found by scans far cheaper than a regular expression or a re-encoding (either cost
 * more than the decoding itself on large payloads).
 */
function decodeBase64(text: string): Buffer | undefined {
  let unpadded = text.length;
  while (unpadded > text.length - 2 && text.charCodeAt(unpadded - 1) === 61 /* = */) unpadded--;
  if (unpadded % 4 === 1 || (unpadded !== text.length && text.length % 4 !== 0)) return undefined;
  const expected = Math.floor((unpadded * 3) / 4);
  const raw = scratchOf(expected);
  const written = raw.write(text, 0, expected, "base64");
  const canonical = written === expected && Buffer.byteLength(text, "utf8") === text.length && !text.includes("-") && !text.includes("_");
  return canonical ? raw.subarray(0, written) : undefined;
}

/** Decrypts envelope text and parses its JSON. Throws `EnvelopeError`, never anything else. */
export function open(ciphertext: unknown, secret: string): unknown {
  const raw = typeof ciphertext === "string" ? decodeBase64(ciphertext) : undefined;
  if (raw === undefined || raw.length === 0) throw new EnvelopeError("malformed", "The payload is not base64 text");
  const body = raw.subarray(HEADER_BYTES);
  if (raw.length < HEADER_BYTES + BLOCK_BYTES || !raw.subarray(0, MAGIC.length).equals(MAGIC) || body.length % BLOCK_BYTES !== 0) {
    throw new EnvelopeError("malformed", "The payload is not an OpenSSL salted ciphertext");
  }
  deriveKeyAndIv(secret, raw.subarray(MAGIC.length, HEADER_BYTES));
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
    const text = bytes.subarray(0, bytes.length - padding);
    // ASCII (most pages) is its own Latin-1, which Node copies without decoding.
    plain = isAscii(text) ? text.toString("latin1") : UTF8.decode(text);
  } catch {
    throw new EnvelopeError("undecryptable", "The payload cannot be decrypted with this key");
  }
  try {
    return JSON.parse(plain);
  } catch {
    throw new EnvelopeError("not-json", "The decrypted payload is not JSON");
  }
}
