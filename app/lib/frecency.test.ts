import { describe, expect, it } from "vitest";
import { boostOf, decayedAt, FRECENCY_HALF_LIFE_HOURS, usedOnceMore } from "./frecency";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 10, 27, 12);

describe("frecency", () => {
  it("halves a use every half-life, and never grows while unused", () => {
    const use = { score: 8, usedAt: now };
    expect(decayedAt(use, now)).toBe(8);
    expect(decayedAt(use, now + FRECENCY_HALF_LIFE_HOURS * HOUR)).toBeCloseTo(4, 10);
    expect(decayedAt(use, now + 2 * FRECENCY_HALF_LIFE_HOURS * HOUR)).toBeCloseTo(2, 10);
    // A clock behind the last use does not inflate it.
    expect(decayedAt(use, now - HOUR)).toBe(8);
  });

  it("adds one use to what is left of the earlier ones", () => {
    const first = usedOnceMore(undefined, now);
    expect(first).toEqual({ score: 1, usedAt: now });
    const later = usedOnceMore(first, now + FRECENCY_HALF_LIFE_HOURS * HOUR);
    expect(later.score).toBeCloseTo(1.5, 10);
    expect(later.usedAt).toBe(now + FRECENCY_HALF_LIFE_HOURS * HOUR);
  });

  it("ranks fifty uses today above a hundred a month ago", () => {
    let today;
    for (let i = 0; i < 50; i++) today = usedOnceMore(today, now - i * 60_000);
    let monthAgo;
    for (let i = 0; i < 100; i++) monthAgo = usedOnceMore(monthAgo, now - 30 * 24 * HOUR - i * 60_000);
    expect(decayedAt(today!, now)).toBeGreaterThan(decayedAt(monthAgo!, now));
  });

  it("boosts from 0 towards 1, more for more use, never reaching 1", () => {
    expect(boostOf(0)).toBe(0);
    const boosts = [0.5, 1, 3, 10, 100, 1e6].map(boostOf);
    expect([...boosts].sort((a, b) => a - b)).toEqual(boosts);
    expect(boosts.every((boost) => boost > 0 && boost < 1)).toBe(true);
    expect(boostOf(3)).toBeCloseTo(0.5, 10);
  });
});
