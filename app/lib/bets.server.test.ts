import { describe, expect, it } from "vitest";
import type { SportsBet } from "../../protocol/wire";
import { inBatches, todayIn, totalsOf } from "./bets.server";

const bet = (id: number, marketId: string, amount: number, exposure: number) =>
  ({ _id: String(id), eventId: "E1", event: "A v B", marketId, market: marketId, amount, exposure }) as SportsBet;

describe("the settlement desk's server helpers", () => {
  it("totals the filtered set per market, largest exposure first, and over all", () => {
    const totals = totalsOf([bet(1, "M1", 100, 100), bet(2, "M2", 100, 85.5), bet(3, "M2", 50.25, 50.25), bet(4, "M1", 0.1, 0.2)]);
    expect(totals.all).toEqual({ count: 4, stake: 250.35, exposure: 235.95 });
    expect(totals.markets.map((market) => [market.marketId, market.count, market.stake, market.exposure])).toEqual([
      ["M2", 2, 150.25, 135.75],
      ["M1", 2, 100.1, 100.2],
    ]);
  });

  it("runs a chunk's calls with at most the limit in flight, answering in order, each once", async () => {
    let inFlight = 0;
    let most = 0;
    const calls: number[] = [];
    const results = await inBatches(Array.from({ length: 25 }, (_, i) => i), 6, async (n) => {
      calls.push(n);
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, n % 3));
      inFlight--;
      return n * 2;
    });
    expect(most).toBe(6);
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
    expect([...calls].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("today's date is the configured zone's, not UTC's", () => {
    // 20:00 UTC is already the next day in Kolkata (UTC+05:30).
    expect(todayIn("Asia/Kolkata", new Date("2026-03-01T20:00:00Z"))).toBe("2026-03-02");
    expect(todayIn("UTC", new Date("2026-03-01T20:00:00Z"))).toBe("2026-03-01");
  });
});
