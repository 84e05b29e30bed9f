import { describe, expect, it } from "vitest";
import { firstIssue } from "./first-issue";
import { accountActionInput, accountActionSchema, depositSchema } from "./account-actions";

const deposit = (fields: Record<string, string>) =>
  depositSchema.safeParse({ intent: "deposit", user: "7", isPartner: "false", requestId: "req-12345678", ...fields });

describe("deposit and withdraw forms (docs/product.md §5)", () => {
  it("accepts a numeric amount with at most 2 decimals and an optional remark", () => {
    const parsed = deposit({ amount: " 100.50 ", remark: "  bonus  " });
    expect(parsed.success && parsed.data).toMatchObject({ amount: 100.5, remark: "bonus", isPartner: false });
    expect(deposit({ amount: "5" }).success && deposit({ amount: "5" }).data?.remark).toBeUndefined();
  });

  it.each([
    ["", "Amount is required"],
    ["abc", "Amount must be a number with at most 2 decimals"],
    ["1.234", "Amount must be a number with at most 2 decimals"],
    ["-5", "Amount must be a number with at most 2 decimals"],
    ["0", "Amount must be above 0"],
  ])("refuses the amount %j", (amount, message) => {
    const parsed = deposit({ amount });
    expect(parsed.success).toBe(false);
    expect(firstIssue(parsed.error!)).toBe(message);
  });

  it("refuses a remark over 100 characters", () => {
    const parsed = deposit({ amount: "5", remark: "x".repeat(101) });
    expect(firstIssue(parsed.error!)).toBe("Remark must be at most 100 characters");
    expect(deposit({ amount: "5", remark: "x".repeat(100) }).success).toBe(true);
  });
});

describe("password and permissions forms", () => {
  it("says the spec's words when the passwords differ", () => {
    const parsed = accountActionSchema.safeParse({
      intent: "password",
      user: "7",
      isPartner: "true",
      password: "abcdef",
      confirmPassword: "abcdeg",
    });
    expect(firstIssue(parsed.error!)).toBe("Password and Confirm Password do not match");
  });

  it("reads switches and repeated flags from a submitted form", () => {
    const form = new FormData();
    form.set("intent", "permissions");
    form.set("user", "7");
    form.set("isPartner", "false");
    form.set("bet", "on");
    form.append("flag", "cricket");
    form.append("flag", "casino");
    const parsed = accountActionSchema.parse(accountActionInput(form));
    expect(parsed).toMatchObject({ intent: "permissions", login: false, bet: true, flags: ["cricket", "casino"] });
  });
});
