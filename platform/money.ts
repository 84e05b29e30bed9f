/**
 * Money is stored and computed as integer minor units (bigint: paise, cents) and
 * travels as a JSON number with at most 2 decimals (docs/protocol.md "Money and ids").
 *
 * The ceiling: one amount (a deposit, a withdrawal, a transfer, everything one decision
 * credits) is at most MAX_AMOUNT; one balance stays within ±MAX_BALANCE (the house may go
 * negative). Both are far below 2^53 minor units, so every amount and balance is an exact
 * integer in a double and prints as its 2-decimal value in JSON; the database's bigint
 * columns carry them exactly and migration 004 checks the balances.
 */
import { badRequest } from "./errors.js";

/** The largest amount one call may move or one decision may credit: 1,000,000,000.00. */
export const MAX_AMOUNT = 1e9;
export const MAX_AMOUNT_MINOR = BigInt(MAX_AMOUNT) * 100n;
/** The largest balance (and, for the house, the deepest negative one): 1,000,000,000,000.00. */
export const MAX_BALANCE = 1e12;
export const MAX_BALANCE_MINOR = BigInt(MAX_BALANCE) * 100n;

export const MONEY_MESSAGE = { tooLarge: "Amount too large" } as const;

/**
 * 1234567n → 12345.67. Division of two exactly represented integers is correctly
 * rounded, so within the ceiling the result is the double nearest the decimal amount and
 * prints as such. Never throws: a stored value beyond the ceiling (written before it
 * existed) still lists, as the nearest double.
 */
export function minorToAmount(minor: bigint): number {
  return Number(minor) / 100;
}

/**
 * 12345.67 → 1234567n; null unless an amount of at least 0.01 with at most 2 decimals, at
 * most MAX_AMOUNT. Compares in cents with a tolerance, since 0.29 * 100 is 28.999999999999996;
 * 1e-9 or 5e-324 are within the tolerance of 0 cents and are refused as such.
 */
export function amountToMinor(amount: number): bigint | null {
  if (!Number.isFinite(amount) || amount <= 0 || amount > MAX_AMOUNT) return null;
  const cents = Math.round(amount * 100);
  return cents >= 1 && Math.abs(amount * 100 - cents) < 1e-6 ? BigInt(cents) : null;
}

/** `minor` itself, or 400 `Amount too large` above MAX_AMOUNT: for amounts the platform computes. */
export function withinAmountCeiling(minor: bigint): bigint {
  if (minor > MAX_AMOUNT_MINOR) throw badRequest(MONEY_MESSAGE.tooLarge);
  return minor;
}

/** 400 `Amount too large` unless -MAX_BALANCE ≤ `balance` ≤ MAX_BALANCE. */
export function assertWithinBalanceCeiling(balance: bigint): void {
  if (balance > MAX_BALANCE_MINOR || balance < -MAX_BALANCE_MINOR) throw badRequest(MONEY_MESSAGE.tooLarge);
}
