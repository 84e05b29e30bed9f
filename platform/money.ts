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
