import { describe, expect, it } from "vitest";
import { bookOf, exposureOf, MIN_STAKE_MINOR, settlementOf, winningsOf, type Priced } from "./arithmetic.js";

const bet = (over: Partial<Priced>): Priced => ({ type: "odds", isBack: true, amount: 10_000n, x: 250n, odds: 250n, ...over });

describe("sports book arithmetic", () => {
  it("rounds each product once, in the house's favour: the player's risk up, the player's winnings down", () => {
    // lay 0.01 at 1.32: 0.0032 → 0.01 (never 0); fancy no 0.15 at rate 10: 0.015 → 0.02
    expect(exposureOf(bet({ isBack: false, amount: 1n, x: 132n }))).toBe(1n);
    expect(exposureOf(bet({ type: "fancy", isBack: false, amount: 15n, odds: 1_000n }))).toBe(2n);
    // back 0.01 at 1.57 pays 0.0057 → 0.00, not 0.01; back 33.33 at 1.85: 28.3305 → 28.33; fancy yes 0.15 at 10 → 0.01
    expect(winningsOf(bet({ amount: 1n, x: 157n }))).toBe(0n);
    expect(winningsOf(bet({ amount: 3_333n, x: 185n }))).toBe(2_833n);
    expect(winningsOf(bet({ type: "fancy", amount: 15n, odds: 1_000n }))).toBe(1n);
    // exact products are not moved either way
    expect(exposureOf(bet({ isBack: false, amount: 10_000n, x: 250n }))).toBe(15_000n);
    expect(winningsOf(bet({ amount: 10_000n, x: 250n }))).toBe(15_000n);
  });

  it("leaves no exposure or winnings at nothing from the minimum stake, the lowest price and the lowest rate", () => {
    const lowest = { amount: MIN_STAKE_MINOR, x: 101n, odds: 100n };
    for (const type of ["odds", "bookmaker", "fancy"] as const) {
      for (const isBack of [true, false]) {
        expect(exposureOf(bet({ ...lowest, type, isBack }))).toBeGreaterThan(0n);
        expect(winningsOf(bet({ ...lowest, type, isBack }))).toBeGreaterThan(0n);
      }
    }
  });

  it("pays winnings on success, takes the exposure on failure, and nothing on void", () => {
    const lay = { ...bet({ isBack: false }), exposure: 15_000n };
    expect(settlementOf(lay, "SUCCESS")).toEqual({ profit: 10_000n, loss: 0n, houseResult: -10_000n });
    expect(settlementOf(lay, "FAIL")).toEqual({ profit: 0n, loss: 15_000n, houseResult: 15_000n });
    expect(settlementOf(lay, "ABANDONED")).toEqual({ profit: 0n, loss: 0n, houseResult: 0n });
  });

  it("books a back bet as a loss of its winnings if its runner wins and a gain of the stake otherwise; a lay the reverse", () => {
    // back 100.00 at 2.50: runner wins → house −150.00, else +100.00; lay 100.00 at 2.50 (exposure 150.00): the reverse sides
    expect(bookOf({ ...bet({}), exposure: 10_000n })).toEqual({ ifWon: -15_000n, ifLost: 10_000n });
    expect(bookOf({ ...bet({ isBack: false }), exposure: 15_000n })).toEqual({ ifWon: 15_000n, ifLost: -10_000n });
    // fancy yes 100.00 at rate 90: runs reach the line → −90.00, else +100.00; no: runs reach it → +90.00, else −100.00
    const fancy = { type: "fancy" as const, amount: 10_000n, x: 4_500n, odds: 9_000n };
    expect(bookOf({ ...bet({ ...fancy, isBack: true }), exposure: 10_000n })).toEqual({ ifWon: -9_000n, ifLost: 10_000n });
    expect(bookOf({ ...bet({ ...fancy, isBack: false }), exposure: 9_000n })).toEqual({ ifWon: 9_000n, ifLost: -10_000n });
  });
});
