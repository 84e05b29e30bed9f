import { describe, expect, it } from "vitest";
import { CALLS } from "../../protocol/calls";
import { callLabel, entrySubject } from "./audit-labels";

describe("the trail's call labels", () => {
  it("names every call of protocol/calls.ts in the desks' words", () => {
    for (const call of Object.keys(CALLS)) expect(callLabel(call), call).not.toBe(call);
  });

  it("names calls as the desks do", () => {
    expect(callLabel("userDeposit")).toBe("Deposit");
    expect(callLabel("userWithdraw")).toBe("Withdraw");
    expect(callLabel("updateDeposit")).toBe("Approve deposit request");
    expect(callLabel("settleBet")).toBe("Settle bet");
    expect(callLabel("changePassword")).toBe("Change password");
    expect(callLabel("signIn")).toBe("Sign in");
  });

  it("shows a call it does not know as itself", () => {
    expect(callLabel("somethingNew")).toBe("somethingNew");
    expect(callLabel("toString")).toBe("toString");
  });
});

describe("what an entry acted on besides its account", () => {
  it("names a settlement's bet with its event, market and runner where the request has them", () => {
    const bet = { _id: "77", event: "India v Australia", market: "Match Odds", runner: "India", username: "user0042" };
    expect(entrySubject("settleBet", { bet, status: 1 })).toBe("Bet 77 · India v Australia · Match Odds · India");
    expect(entrySubject("resettleBet", { bet: { _id: "77" }, status: 2 })).toBe("Bet 77");
  });

  it("names a decision's request", () => {
    expect(entrySubject("updateDeposit", { _id: "5", status: 1 })).toBe("Request 5");
    expect(entrySubject("updateWithdraw", { _id: "6", status: 2 })).toBe("Request 6");
  });

  it("names nothing else, nor a request it cannot read", () => {
    expect(entrySubject("userDeposit", { user: "42", amount: 10 })).toBeNull();
    expect(entrySubject("settleBet", null)).toBeNull();
  });
});
