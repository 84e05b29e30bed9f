import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./same-origin.server";

describe("same-origin check", () => {
  it("accepts this host by Origin or Referer", () => {
    expect(isSameOrigin({ origin: "http://console.test:3000", host: "console.test:3000" })).toBe(true);
    expect(isSameOrigin({ referer: "http://console.test:3000/users?x=1", host: "console.test:3000" })).toBe(true);
  });
  it("refuses another site, a missing source and nonsense", () => {
    expect(isSameOrigin({ origin: "http://evil.example", host: "console.test:3000" })).toBe(false);
    expect(isSameOrigin({ host: "console.test:3000" })).toBe(false);
    expect(isSameOrigin({ origin: "not a url", host: "console.test:3000" })).toBe(false);
    expect(isSameOrigin({ origin: "http://console.test:3000" })).toBe(false);
  });
});
