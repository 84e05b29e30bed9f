import { describe, expect, it, vi } from "vitest";
import { createDeliveries } from "./realtime";

describe("which extension events the relay delivers", () => {
  it("none until one arrives, so the screens keep the spec's poll; known once one did", () => {
    const deliveries = createDeliveries<"bet-settled" | "market-update">();
    const watcher = vi.fn();
    deliveries.subscribe(watcher);
    expect(deliveries.has("bet-settled")).toBe(false);
    deliveries.seen("bet-settled");
    deliveries.seen("bet-settled");
    expect(deliveries.has("bet-settled")).toBe(true);
    expect(deliveries.has("market-update")).toBe(false);
    expect(watcher).toHaveBeenCalledTimes(1);
  });

  it("forgets them when the upstream connection drops: events sent meanwhile are lost, so the poll runs again", () => {
    const deliveries = createDeliveries<"bet-settled">();
    const watcher = vi.fn();
    const stop = deliveries.subscribe(watcher);
    deliveries.seen("bet-settled");
    deliveries.lost();
    expect(deliveries.has("bet-settled")).toBe(false);
    expect(watcher).toHaveBeenCalledTimes(2);
    stop();
    deliveries.seen("bet-settled");
    expect(watcher).toHaveBeenCalledTimes(2);
  });
});
