import { describe, expect, it } from "vitest";
import { bookOf, exposureOf, settlementOf, winningsOf, type Priced } from "./arithmetic.js";

const bet = (over: Partial<Priced>): Priced => ({ type: "odds", isBack: true, amount: 10_000n, x: 250n, odds: 250n, ...over });

describe("sports book arithmetic", () => {
  it("rounds each product once, half up, in minor units", () => {
    // lay 0.05 at 1.10: 0.05 × 0.10 = 0.005 → 0.01; fancy no 0.15 at rate 10: 0.015 → 0.02
    expect(exposureOf(bet({ isBack: false, amount: 5n, x: 110n }))).toBe(1n);
    expect(exposureOf(bet({ type: "fancy", isBack: false, amount: 15n, odds: 1_000n }))).toBe(2n);
    expect(winningsOf(bet({ amount: 3_333n, x: 185n }))).toBe(2_833n);
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
