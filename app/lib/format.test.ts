import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_TIME_ZONE } from "./constants";
import { formatClock, formatDateTime, formatSignedWhole, setDisplayTimeZone } from "./format";

describe("one time zone for every time shown", () => {
  afterEach(() => setDisplayTimeZone(DEFAULT_TIME_ZONE));

  it("shows tables and the clock in the configured zone", () => {
    const instant = new Date("2026-11-21T20:05:09Z");
    expect(formatDateTime(instant.toISOString())).toBe("22/11/26 01:35 am");
    expect(formatClock(instant)).toBe("01:35:09");
    setDisplayTimeZone("UTC");
    expect(formatDateTime(instant.toISOString(), true)).toBe("21/11/26 08:05:09 pm");
    expect(formatClock(instant)).toBe("20:05:09");
  });
});

describe("signed whole amounts (chart axes)", () => {
  it("group the Indian way, with a plus, a true minus, or no sign for zero", () => {
    expect(formatSignedWhole(250_000)).toBe("+2,50,000");
    expect(formatSignedWhole(-1_234_567)).toBe("−12,34,567");
    expect(formatSignedWhole(0)).toBe("0");
  });
});
