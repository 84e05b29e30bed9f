import { describe, expect, it } from "vitest";
import { SETTLEMENT } from "../../../protocol/wire";
import { OUTCOME_PROBLEM, outcomeCodeOf, resettleSchema } from "./settlement";

describe("settlement forms", () => {
  it("reads an outcome from its word or its key", () => {
    expect(outcomeCodeOf("Success")).toBe(SETTLEMENT.success);
    expect(outcomeCodeOf(" f ")).toBe(SETTLEMENT.fail);
    expect(outcomeCodeOf("void")).toBe(SETTLEMENT.abandoned);
    expect(outcomeCodeOf("maybe")).toBeUndefined();
  });

  it("refuses a resettlement without a bet id or a known outcome, naming the problem", () => {
    expect(resettleSchema.parse({ intent: "resettle", bet: "42", status: "fail" })).toEqual({ intent: "resettle", bet: "42", status: 2 });
    const badBet = resettleSchema.safeParse({ intent: "resettle", bet: "x1", status: "s" });
    expect(badBet.success || badBet.error.issues[0]!.message).toBe("Bet ID must be a number");
    const badOutcome = resettleSchema.safeParse({ intent: "resettle", bet: "42", status: "maybe" });
    expect(badOutcome.success || badOutcome.error.issues[0]!.message).toBe(OUTCOME_PROBLEM);
  });
});
