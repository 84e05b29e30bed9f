import { describe, expect, it } from "vitest";
import { isAddressIn, parseRange, rangesOf } from "./addresses";

describe("addresses and ranges", () => {
  it("matches IPv4 and IPv6 ranges, an IPv4-mapped address as its IPv4 one, and one address as its own range", () => {
    expect(isAddressIn("10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(isAddressIn("::ffff:10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(isAddressIn("2001:db8::42", ["2001:db8::/32"])).toBe(true);
    expect(isAddressIn("203.0.113.7", ["203.0.113.7"])).toBe(true);
    expect(isAddressIn("11.0.0.1", ["10.0.0.0/8", "2001:db8::/32"])).toBe(false);
  });
  it("lets nothing unreadable through", () => {
    expect(isAddressIn("", ["0.0.0.0/0"])).toBe(false);
    expect(isAddressIn("10.0.0.1, 203.0.113.7", ["10.0.0.0/8"])).toBe(false);
    expect(parseRange("10.0.0.0/33")).toBeNull();
    expect(parseRange("example.com")).toBeNull();
  });
  it("reads a list written with commas or one range a line", () => {
    expect(rangesOf(" 10.0.0.0/8,\n::1\n\n")).toEqual(["10.0.0.0/8", "::1"]);
  });
});
