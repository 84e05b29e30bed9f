import { describe, expect, it } from "vitest";
import { loginSchema, safeRedirect } from "./login";
import { firstIssue } from "./first-issue";
import { ownPasswordSchema } from "./own-password";

describe("login form", () => {
  it("needs both fields", () => {
    expect(loginSchema.safeParse({ username: " ", password: "x" }).success).toBe(false);
    expect(loginSchema.safeParse({ username: "admin", password: "" }).success).toBe(false);
    expect(loginSchema.parse({ username: " admin ", password: "pw" }).username).toBe("admin");
  });

  it.each([
    [undefined, "/"],
    ["/users?page=2", "/users?page=2"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["/login", "/"],
    ["/login?redirectTo=/x", "/"],
  ])("redirects %s to %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe("own password form", () => {
  it("says the spec's words when new and confirm differ", () => {
    const result = ownPasswordSchema.safeParse({ curPassword: "old", password: "newpass1", confirmPassword: "newpass2" });
    expect(result.success).toBe(false);
    expect(firstIssue(result.error!)).toBe("Password and confirm password do not match");
  });

  it("requires all three fields", () => {
    const result = ownPasswordSchema.safeParse({ curPassword: "", password: "newpass1", confirmPassword: "newpass1" });
    expect(firstIssue(result.error!)).toBe("Old Password is required");
  });

  it("accepts a matching, long enough password", () => {
    expect(ownPasswordSchema.safeParse({ curPassword: "a", password: "newpass1", confirmPassword: "newpass1" }).success).toBe(true);
    expect(ownPasswordSchema.safeParse({ curPassword: "a", password: "short", confirmPassword: "short" }).success).toBe(false);
  });
});
