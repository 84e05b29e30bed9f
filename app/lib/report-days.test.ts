import { describe, expect, it } from "vitest";
import { daysBetween, presetRange } from "./report-days";

describe("report presets", () => {
  // Wednesday 2026-11-18 at 20:00 UTC is already Thursday 01:30 in Kolkata.
  const lateWednesdayUtc = new Date("2026-11-18T20:00:00Z");

  it("count Asia/Kolkata days, not the browser's", () => {
    expect(presetRange("today", lateWednesdayUtc)).toEqual({ from: "2026-11-19", to: "2026-11-19" });
    expect(presetRange("yesterday", lateWednesdayUtc)).toEqual({ from: "2026-11-18", to: "2026-11-18" });
  });

  it("start the week on Monday and the month on its first day, both up to today", () => {
    expect(presetRange("week", lateWednesdayUtc)).toEqual({ from: "2026-11-16", to: "2026-11-19" });
    expect(presetRange("month", lateWednesdayUtc)).toEqual({ from: "2026-11-01", to: "2026-11-19" });
    // On a Monday the week is that day alone.
    expect(presetRange("week", new Date("2026-11-16T06:00:00Z"))).toEqual({ from: "2026-11-16", to: "2026-11-16" });
  });

  it("list every day of a range, across a month's end", () => {
    expect(daysBetween("2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(daysBetween("2026-03-02", "2026-03-02")).toEqual(["2026-03-02"]);
  });
});
