import { describe, expect, it } from "vitest";
import { inBatches, slicesOf } from "./in-batches";

describe("inBatches", () => {
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
});

describe("slicesOf", () => {
  it("cuts items into consecutive slices of at most the size, the last one short, none for no items", () => {
    expect(slicesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(slicesOf([1, 2], 2)).toEqual([[1, 2]]);
    expect(slicesOf([], 2)).toEqual([]);
  });
});
