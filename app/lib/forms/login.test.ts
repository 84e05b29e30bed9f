import { describe, expect, it } from "vitest";
import { loginSchema, safeRedirect } from "./login";

describe("where sign-in goes next (issue 15 item 5)", () => {
  it.each([
    "/\t/evil.example/phish",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\u3000/evil.example",
    "/\u00a0/evil.example",
    "/\u200b/evil.example",
    "/\u2028/evil.example",
    "/\\evil.example",
    "/\\\\evil.example",
    "//evil.example",
    "/ /evil.example",
    "/users\u0000",
    "\t//evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/session",
    "/login/",
    "",
  ])("sends %j home", (to) => {
    expect(safeRedirect(to)).toBe("/");
  });

  it.each([
    ["/users?page=2", "/users?page=2"],
    ["/users/bets?user=abc#top", "/users/bets?user=abc#top"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/a/../users", "/users"],
    ["/märkte", "/m%C3%A4rkte"],
  ])("keeps the console's own path %j as %j", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });
});

it("signs in anyway when redirectTo is too long or not text, going home", () => {
  for (const redirectTo of [`/${"a".repeat(3000)}`, 42]) {
    const form = loginSchema.parse({ username: "admin", password: "pw", redirectTo });
    expect(safeRedirect(form.redirectTo)).toBe("/");
  }
});
