import { describe, expect, it } from "vitest";
import { daysBetween } from "~/lib/report-days";
import { dayAt, dayCentre, dayLabel, dayScale, dayTicks, profitScale, spansYears } from "./chart-axes";

describe("the chart's x scale", () => {
  it("is exactly the chosen days: one day is its own slot, its bar in the middle", () => {
    const [min, max] = dayScale(["2026-11-19"]);
    expect([dayAt(min), dayAt(max - 1)]).toEqual(["2026-11-19", "2026-11-19"]);
    expect(max - min).toBe(86_400);
    expect(dayCentre("2026-11-19")).toBe((min + max) / 2);
  });

  it("runs from the first day's midnight to the end of the last, over 7, 30 and 365 days", () => {
    for (const [from, to] of [["2026-11-13", "2026-11-19"], ["2026-10-21", "2026-11-19"], ["2025-11-20", "2026-11-19"]] as const) {
      const days = daysBetween(from, to);
      const [min, max] = dayScale(days);
      expect([dayAt(min), dayAt(max - 1)]).toEqual([from, to]);
      expect((max - min) / 86_400).toBe(days.length);
    }
  });
});

describe("the chart's day labels", () => {
  it("label every day while they fit, then every nth from the first", () => {
    const week = daysBetween("2026-11-13", "2026-11-19");
    expect(dayTicks(week, 20)).toEqual(week);
    const month = daysBetween("2026-11-01", "2026-11-30");
    expect(dayTicks(month, 10)).toEqual(["2026-11-01", "2026-11-04", "2026-11-07", "2026-11-10", "2026-11-13", "2026-11-16", "2026-11-19", "2026-11-22", "2026-11-25", "2026-11-28"]);
    expect(dayTicks(["2026-11-19"], 0)).toEqual(["2026-11-19"]);
  });

  it("put a long range's labels on month starts, thinned to fit", () => {
    const year = daysBetween("2025-11-20", "2026-11-19");
    expect(dayTicks(year, 20)).toHaveLength(12);
    expect(dayTicks(year, 20).every((day) => day.endsWith("-01"))).toBe(true);
    expect(dayTicks(year, 6)).toEqual(["2025-12-01", "2026-02-01", "2026-04-01", "2026-06-01", "2026-08-01", "2026-10-01"]);
  });

  it("read DD/MM, with the year when the range crosses one", () => {
    expect(dayLabel("2026-11-09", false)).toBe("09/11");
    expect(dayLabel("2026-11-09", true)).toBe("09/11/26");
    expect(spansYears(["2025-12-31", "2026-01-01"])).toBe(true);
    expect(spansYears(["2026-01-01", "2026-12-31"])).toBe(false);
  });
});

describe("the chart's y scale", () => {
  it("steps in whole round amounts through zero, covering every value", () => {
    expect(profitScale([1200.5, -340, 0], 4)).toEqual({ min: -500, max: 1500, splits: [-500, 0, 500, 1000, 1500] });
    expect(profitScale([250_000], 4)).toEqual({ min: 0, max: 300_000, splits: [0, 100_000, 200_000, 300_000] });
    expect(profitScale([-75], 3)).toEqual({ min: -100, max: 0, splits: [-100, -50, 0] });
  });

  it("never steps below 1, so small amounts still get whole labels", () => {
    expect(profitScale([0.4, -0.2], 4)).toEqual({ min: -1, max: 1, splits: [-1, 0, 1] });
  });

  it("gives all-zero days a flat zero line at the foot of an axis", () => {
    expect(profitScale([0, 0, 0], 3)).toEqual({ min: 0, max: 100, splits: [0, 50, 100] });
    expect(profitScale([], 3).min).toBe(0);
  });
});
