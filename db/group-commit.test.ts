import { describe, expect, it } from "vitest";
import { groupCommit, type Settled } from "./group-commit.js";

/** A writer that records its batches and answers each item doubled, or fails items below 0. */
function recorder(hold?: Promise<void>) {
  const batches: number[][] = [];
  const write = async (items: number[]): Promise<Settled<number>[]> => {
    batches.push(items);
    await hold;
    return items.map((item) => (item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 2 }));
  };
  return { batches, write };
}

const byValue = { keyOf: (item: number) => String(item), maxBatch: 10 };

describe("groupCommit", () => {
  it("writes calls of one turn as one batch and answers each caller its own item", async () => {
    const { batches, write } = recorder();
    const call = groupCommit(write, byValue);
    await expect(Promise.all([call(1), call(2), call(3)])).resolves.toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("without keyOf, lets equal items share a batch", async () => {
    const { batches, write } = recorder();
    const call = groupCommit(write, { maxBatch: 10 });
    await expect(Promise.all([call(1), call(1), call(2)])).resolves.toEqual([2, 2, 4]);
    expect(batches).toEqual([[1, 1, 2]]);
  });

  it("queues calls that arrive while a batch is written and writes them together next", async () => {
    let release!: () => void;
    const { batches, write } = recorder(new Promise<void>((resolve) => (release = resolve)));
    const call = groupCommit(write, byValue);
    const first = call(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [call(2), call(3), call(4)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    release();
    await expect(Promise.all([first, ...later])).resolves.toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("never puts two calls with one key in a batch, and caps a batch's size", async () => {
    const { batches, write } = recorder();
    const call = groupCommit(write, { ...byValue, maxBatch: 2 });
    await Promise.all([call(7), call(7), call(8), call(9)]);
    expect(batches).toEqual([[7, 8], [7, 9]]);
  });

  it("rejects only the caller whose item failed", async () => {
    const { write } = recorder();
    const call = groupCommit(write, byValue);
    const results = await Promise.allSettled([call(1), call(-1), call(3)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("rejects every caller of a batch whose write fails, then goes on with the next batch", async () => {
    let fail = true;
    const call = groupCommit(
      async (items: number[]) => {
        if (fail) {
          fail = false;
          throw new Error("connection lost");
        }
        return items.map((item) => ({ ok: true, value: item }) as const);
      },
      byValue,
    );
    const failed = await Promise.allSettled([call(1), call(2)]);
    expect(failed.every((result) => result.status === "rejected")).toBe(true);
    await expect(call(3)).resolves.toBe(3);
  });
});
