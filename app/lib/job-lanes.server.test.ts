import { describe, expect, it } from "vitest";
import { inLane, lanesInUse } from "./job-lanes.server";

const later = () => {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};

/** Lets every settled promise's continuations run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a job's shared lanes", () => {
  it("let no more than their width run at once, and give a free lane to the earliest chunk's waiting call", async () => {
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof later>>();
    /** A call of chunk `chunk` (its start: the lower goes first). */
    const run = (name: string, chunk: number) =>
      inLane("job-1 together", 2, chunk, async () => {
        started.push(name);
        const gate = later();
        gates.set(name, gate);
        await gate.done;
        return name;
      });
    const calls = [run("a1", 1), run("a2", 1), run("b1", 2), run("b2", 2)];
    await settle();
    expect(started).toEqual(["a1", "a2"]);
    // A later call of the first chunk goes before the second chunk's, which waited longer.
    calls.push(run("a3", 1));
    gates.get("a1")!.release();
    await settle();
    expect(started).toEqual(["a1", "a2", "a3"]);
    gates.get("a2")!.release();
    await settle();
    expect(started).toEqual(["a1", "a2", "a3", "b1"]);
    gates.get("a3")!.release();
    await settle();
    expect(started).toEqual(["a1", "a2", "a3", "b1", "b2"]);
    gates.get("b1")!.release();
    gates.get("b2")!.release();
    expect(await Promise.all(calls)).toEqual(["a1", "a2", "b1", "b2", "a3"]);
    expect(lanesInUse()).toBe(0);
  });

  it("free a lane when its work fails, and keep other jobs' lanes apart", async () => {
    await expect(inLane("job-2 each", 1, 1, async () => Promise.reject(new Error("Bet already settled")))).rejects.toThrow("Bet already settled");
    const gate = later();
    const held = inLane("job-2 each", 1, 1, () => gate.done);
    // Another job's lane is not held by job-2's.
    await expect(inLane("job-3 each", 1, 1, async () => "other job")).resolves.toBe("other job");
    gate.release();
    await held;
    expect(lanesInUse()).toBe(0);
  });
});
