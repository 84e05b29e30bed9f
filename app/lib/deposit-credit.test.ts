import { describe, expect, it } from "vitest";
import { DEPOSIT_TYPE } from "../../protocol/wire";
import { depositCredit } from "./deposit-credit";

describe("what approving a deposit credits", () => {
  it("a USDT amount at its rate, rounded half up to the paisa; none without the rate", () => {
    expect(depositCredit({ amount: 1.5, type: DEPOSIT_TYPE.usdt }, { inr: 90_000 }, 0)).toBe(135_000);
    expect(depositCredit({ amount: 0.01, type: DEPOSIT_TYPE.usdt }, { inr: 0.5 }, 0)).toBe(0.01);
    expect(depositCredit({ amount: 1.5, type: DEPOSIT_TYPE.usdt }, {}, 0)).toBeNull();
  });

  it("adds each bonus pair (its INR, else its percentage; 0 is not given) and the coupon's percentage", () => {
    expect(depositCredit({ amount: 900, type: DEPOSIT_TYPE.upi }, { mainPrnBonus: 50, prnBonus: 50 }, 0)).toBe(1800);
    expect(depositCredit({ amount: 900, type: DEPOSIT_TYPE.bank }, { mainInrBonus: 0, mainPrnBonus: 10, inrBonus: 5 }, 10)).toBe(1085);
    expect(depositCredit({ amount: 0.05, type: DEPOSIT_TYPE.upi }, { prnBonus: 10 }, 0)).toBe(0.06);
  });
});
