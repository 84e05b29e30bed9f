import { describe, expect, it } from "vitest";
import { inLane, lanesInUse } from "./job-lanes.server";

const later = () => {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};

describe("a job's shared lanes", () => {
  it("let no more than their width run at once across callers, the waiting ones in the order they came", async () => {
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof later>>();
    const run = (name: string) =>
      inLane("job-1 together", 2, async () => {
        started.push(name);
        const gate = later();
        gates.set(name, gate);
        await gate.done;
        return name;
      });
    // Two chunks of one job, each with its calls: the second chunk's wait for the first's.
    const first = [run("a1"), run("a2")];
    const second = [run("b1"), run("b2")];
    await Promise.resolve();
    expect(started).toEqual(["a1", "a2"]);
    gates.get("a2")!.release();
    await expect(first[1]).resolves.toBe("a2");
    expect(started).toEqual(["a1", "a2", "b1"]);
    gates.get("a1")!.release();
    await first[0];
    await Promise.resolve();
    expect(started).toEqual(["a1", "a2", "b1", "b2"]);
    gates.get("b1")!.release();
    gates.get("b2")!.release();
    await Promise.all(second);
    expect(lanesInUse()).toBe(0);
  });

  it("free a lane when its work fails, and keep other jobs' lanes apart", async () => {
    await expect(inLane("job-2 each", 1, async () => Promise.reject(new Error("Bet already settled")))).rejects.toThrow("Bet already settled");
    const gate = later();
    const held = inLane("job-2 each", 1, () => gate.done);
    // Another job's lane is not held by job-2's.
    await expect(inLane("job-3 each", 1, async () => "other job")).resolves.toBe("other job");
    gate.release();
    await held;
    expect(lanesInUse()).toBe(0);
  });
});
