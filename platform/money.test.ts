import { describe, expect, it } from "vitest";
import {
  amountToMinor,
  assertWithinBalanceCeiling,
  MAX_AMOUNT,
  MAX_AMOUNT_MINOR,
  MAX_BALANCE_MINOR,
  minorToAmount,
  withinAmountCeiling,
} from "./money.js";

describe("money", () => {
  it("reads amounts of at least a paisa with at most 2 decimals, up to MAX_AMOUNT", () => {
    expect(amountToMinor(0.29)).toBe(29n);
    expect(amountToMinor(0.01)).toBe(1n);
    expect(amountToMinor(MAX_AMOUNT)).toBe(MAX_AMOUNT_MINOR);
    for (const refused of [0, -1, 1e-9, 5e-324, 0.004, 1.005, MAX_AMOUNT + 0.01, Number.NaN, Infinity]) {
      expect(amountToMinor(refused), String(refused)).toBeNull();
    }
  });

  it("writes every balance within the ceiling exactly, and never throws on one beyond it", () => {
    expect(minorToAmount(MAX_BALANCE_MINOR - 1n)).toBe(999_999_999_999.99);
    expect(minorToAmount(-MAX_BALANCE_MINOR)).toBe(-1e12);
    expect(JSON.stringify(minorToAmount(123_456_789_012_34n))).toBe("123456789012.34");
    expect(minorToAmount(10n ** 16n)).toBe(1e14);
  });

  it("refuses computed amounts and balances beyond the ceiling with 400 Amount too large", () => {
    expect(withinAmountCeiling(MAX_AMOUNT_MINOR)).toBe(MAX_AMOUNT_MINOR);
    expect(() => withinAmountCeiling(MAX_AMOUNT_MINOR + 1n)).toThrow(expect.objectContaining({ statusCode: 400, message: "Amount too large" }));
    expect(() => assertWithinBalanceCeiling(MAX_BALANCE_MINOR)).not.toThrow();
    expect(() => assertWithinBalanceCeiling(-MAX_BALANCE_MINOR - 1n)).toThrow("Amount too large");
  });
});
