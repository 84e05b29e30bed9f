/**
 * Password hashing with node:crypto scrypt. A stored hash describes itself
 * (`scrypt$N$r$p$salt$hash`, base64url), so the cost can be raised later without
 * invalidating existing hashes: verification reads the parameters from the hash.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { z } from "zod";
import { withoutControlCharacters } from "../validation/schemas.js";

/** The rule for every password an operator chooses (change-password, the set-password command). */
export const NewPassword = withoutControlCharacters(
  z.string().min(6, "Password must be 6 to 128 characters").max(128, "Password must be 6 to 128 characters"),
);

/**
 * log2 of scrypt's N for new hashes (PASSWORD_HASH_COST): 15 (N=2^15, r=8) takes ~80–100 ms and
 * 32 MiB per hash on a current core. Production hashes at it alone (platform/env.ts).
 */
export const DEFAULT_HASH_COST = 15;
/** The least cost any environment accepts: the test suites' (docs/operations.md "Password hashing"). */
export const LEAST_HASH_COST = 10;
const costOf = (log2N: number) => ({ N: 2 ** log2N, r: 8, p: 1 }) as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, { N, r, p }: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A new salted hash of `password` at `cost` (log2 of N). */
export async function hashPassword(password: string, cost = DEFAULT_HASH_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = costOf(cost);
  const key = await derive(password, salt, { N, r, p });
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** False for a wrong password and for a hash it cannot read; never throws on bad input. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every(Number.isSafeInteger) || expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(salt, "base64url"), cost).catch(() => null);
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A hash to verify against when the account does not exist, at the cost new hashes are made
 * with, so an unknown username costs the same time as a wrong password and does not reveal
 * which usernames exist.
 */
export function dummyPasswordHash(cost = DEFAULT_HASH_COST): Promise<string> {
  if (!dummyHashes.has(cost)) dummyHashes.set(cost, hashPassword(randomBytes(16).toString("hex"), cost));
  return dummyHashes.get(cost)!;
}
