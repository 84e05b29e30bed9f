import { describe, expect, it } from "vitest";
import { addAccountSchema, addUserRequest } from "./add-account";
import { firstIssue } from "./first-issue";

const base = { intent: "addAccount", isPartner: "false", username: "newbie", mobNo: "", password: "secret1", repeatPassword: "secret1" };
const allShares = { cricket: "80", football: "80", tennis: "80", bookmaker: "75", fancy: "75", casino: "70" };

describe("add user and panel (docs/product.md §5)", () => {
  it("adds a user with the flags chosen", () => {
    const form = addAccountSchema.parse({ ...base, flags: ["cricket", "casino"] });
    expect(addUserRequest(form)).toMatchObject({
      username: "newbie",
      isPartner: false,
      permissions: { cricket: true, casino: true, football: false },
      share: {},
    });
  });

  it("says the spec's words when the passwords differ", () => {
    expect(firstIssue(addAccountSchema.safeParse({ ...base, repeatPassword: "other" }).error!)).toBe(
      "Password and Confirm Password do not match",
    );
  });

  it("needs at least 6 shares, none empty or negative, and a role for a panel", () => {
    const panel = { ...base, isPartner: "true", role: "3" };
    expect(addAccountSchema.safeParse({ ...panel, shares: allShares }).success).toBe(true);
    expect(firstIssue(addAccountSchema.safeParse({ ...panel, shares: { ...allShares, casino: "" } }).error!)).toBe(
      "Invalid share value",
    );
    expect(firstIssue(addAccountSchema.safeParse({ ...panel, shares: { ...allShares, casino: "-5" } }).error!)).toBe(
      "Invalid share value",
    );
    expect(firstIssue(addAccountSchema.safeParse({ ...panel, shares: { ...allShares, casino: "101" } }).error!)).toBe(
      "Invalid share value",
    );
    expect(firstIssue(addAccountSchema.safeParse({ ...panel, role: undefined, shares: allShares }).error!)).toBe("Choose a role");
  });

  it("checks the username and mobile number", () => {
    expect(firstIssue(addAccountSchema.safeParse({ ...base, username: "a b" }).error!)).toBe(
      "Username may use letters, digits, _ . and - only",
    );
    expect(firstIssue(addAccountSchema.safeParse({ ...base, mobNo: "12ab" }).error!)).toBe("Mobile number must be 7 to 15 digits");
  });
});
