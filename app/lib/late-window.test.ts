import { describe, expect, it } from "vitest";
import { inWindow, WINDOW_EMPTY, WINDOW_PROBLEM, windowStartOf } from "./late-window";

const at = (iso: string) => new Date(iso);

describe("windowStartOf", () => {
  const close = at("2025-03-10T14:00:00.000Z"); // 19:30:00 in Asia/Kolkata (+05:30)

  it("reads a span before the end", () => {
    expect(windowStartOf("-90s", close, "Asia/Kolkata").from).toEqual(at("2025-03-10T13:58:30.000Z"));
    expect(windowStartOf("-5m", close, "Asia/Kolkata").from).toEqual(at("2025-03-10T13:55:00.000Z"));
    expect(windowStartOf(" -1h30m ", close, "Asia/Kolkata").from).toEqual(at("2025-03-10T12:30:00.000Z"));
    expect(windowStartOf("-1m30s", close, "UTC").from).toEqual(at("2025-03-10T13:58:30.000Z"));
  });

  it("reads a clock time in the console's zone, on the end's day", () => {
    expect(windowStartOf("19:28", close, "Asia/Kolkata").from).toEqual(at("2025-03-10T13:58:00.000Z"));
    expect(windowStartOf("19:29:45", close, "Asia/Kolkata").from).toEqual(at("2025-03-10T13:59:45.000Z"));
    expect(windowStartOf("09:15:07", close, "UTC").from).toEqual(at("2025-03-10T09:15:07.000Z"));
  });

  it("reads a clock time later than the end as the day before", () => {
    const afterMidnight = at("2025-03-10T18:35:00.000Z"); // 00:05 on the 11th in Kolkata
    expect(windowStartOf("23:50", afterMidnight, "Asia/Kolkata").from).toEqual(at("2025-03-10T18:20:00.000Z"));
  });

  it("holds across a change of the zone's offset", () => {
    // London moved to summer time at 01:00 UTC on 30 March 2025.
    const end = at("2025-03-30T12:00:00.000Z"); // 13:00 BST
    expect(windowStartOf("12:30", end, "Europe/London").from).toEqual(at("2025-03-30T11:30:00.000Z"));
    expect(windowStartOf("00:30", end, "Europe/London").from).toEqual(at("2025-03-30T00:30:00.000Z"));
  });

  it("refuses what is not a time, or a window that would be empty", () => {
    for (const text of ["", "19", "24:00", "12:60", "12:00:60", "90s", "-", "-90x", "noon", "-1d"]) {
      expect(windowStartOf(text, close, "Asia/Kolkata"), text).toEqual({ problem: WINDOW_PROBLEM });
    }
    expect(windowStartOf("-0s", close, "UTC")).toEqual({ problem: WINDOW_EMPTY });
    expect(windowStartOf("14:00", close, "UTC")).toEqual({ problem: WINDOW_EMPTY });
  });
});

describe("inWindow", () => {
  it("includes both ends, to the millisecond", () => {
    const from = at("2025-03-10T13:58:30.000Z");
    const end = at("2025-03-10T14:00:00.000Z");
    expect(inWindow("2025-03-10T13:58:29.999Z", from, end)).toBe(false);
    expect(inWindow("2025-03-10T13:58:30.000Z", from, end)).toBe(true);
    expect(inWindow("2025-03-10T14:00:00.000Z", from, end)).toBe(true);
    expect(inWindow("2025-03-10T14:00:00.001Z", from, end)).toBe(false);
  });
});
