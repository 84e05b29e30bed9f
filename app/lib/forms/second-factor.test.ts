import { describe, expect, it } from "vitest";
import { POSTED_FACTOR_REFUSED, postedFactorSchema } from "./second-factor";

describe("the second step posted as a plain form (before hydration, or without JavaScript)", () => {
  it("reads the code and which kind it is as the factor the browser's call sends", () => {
    expect(postedFactorSchema.parse({ intent: "secondFactor", factor: "totp", code: " 123456 " })).toEqual({ method: "totp", code: "123456" });
    expect(postedFactorSchema.parse({ factor: "recovery", code: "abcd-efgh-ijkl" })).toEqual({ method: "recovery", code: "abcd-efgh-ijkl" });
  });

  it.each([
    [{ factor: "totp", code: "12345" }, "Enter the 6-digit code from your authenticator app"],
    [{ factor: "totp", code: "12345a" }, "Enter the 6-digit code from your authenticator app"],
    [{ factor: "recovery", code: "short" }, "Enter one of your recovery codes"],
  ])("refuses %j with the field's own message", (form, message) => {
    const parsed = postedFactorSchema.safeParse(form);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it.each([{ factor: "passkey", code: "123456" }, { code: "123456" }, { factor: "totp" }, { factor: "totp", code: "1".repeat(65) }])(
    "refuses %j, saying what it takes: a passkey is never a posted field, and nothing is missing or oversized",
    (form) => {
      const parsed = postedFactorSchema.safeParse(form);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(POSTED_FACTOR_REFUSED);
    },
  );
});
