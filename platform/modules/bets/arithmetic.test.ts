import { describe, expect, it } from "vitest";
import { exposureOf, settlementOf, winningsOf, type Priced } from "./arithmetic.js";

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
});
