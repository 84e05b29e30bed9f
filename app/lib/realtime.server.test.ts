import { afterEach, describe, expect, it, vi } from "vitest";
import { coalesce } from "./realtime.server";

afterEach(() => vi.useRealTimers());

describe("relaying an event a browser only reloads on", () => {
  it("sends the first at once, then at most one per interval, the latest of those that came meanwhile", () => {
    vi.useFakeTimers();
    const sent: unknown[] = [];
    const relay = coalesce((payload) => sent.push(payload), 250);
    for (let bet = 1; bet <= 1000; bet++) relay.push({ _id: String(bet) });
    expect(sent).toEqual([{ _id: "1" }]);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([{ _id: "1" }, { _id: "1000" }]);
    // Quiet for an interval: the next one goes at once again.
    vi.advanceTimersByTime(250);
    relay.push({ _id: "1001" });
    expect(sent).toHaveLength(3);
  });

  it("sends nothing more once stopped (the browser left)", () => {
    vi.useFakeTimers();
    const sent: unknown[] = [];
    const relay = coalesce((payload) => sent.push(payload), 250);
    relay.push(1);
    relay.push(2);
    relay.stop();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([1]);
  });
});
