/**
 * Money is stored and computed as integer minor units (bigint: paise, cents) and
 * travels as a JSON number with at most 2 decimals (PROTOCOL.md).
 */

/**
 * 1234567n → 12345.67. Division of two exactly represented integers is correctly
 * rounded, so the result is the double nearest the decimal amount and prints as such.
 */
export function minorToAmount(minor: bigint): number {
  const value = Number(minor);
  if (!Number.isSafeInteger(value)) throw new RangeError(`Amount out of range: ${minor} minor units`);
  return value / 100;
}

/** The largest amount one deposit or withdrawal may move: 1,000,000,000.00. */
export const MAX_AMOUNT = 1e9;

/**
 * 12345.67 → 1234567n; null unless a positive amount with at most 2 decimals, at most
 * MAX_AMOUNT. Compares in cents with a tolerance, since 0.29 * 100 is 28.999999999999996.
 */
export function amountToMinor(amount: number): bigint | null {
  if (!Number.isFinite(amount) || amount <= 0 || amount > MAX_AMOUNT) return null;
  const cents = Math.round(amount * 100);
  return Math.abs(amount * 100 - cents) < 1e-6 ? BigInt(cents) : null;
}
