import { describe, expect, it } from "vitest";
import { FailureThrottle } from "./throttle.js";

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("FailureThrottle", () => {
  it("blocks a key at the limit until its window ends", () => {
    const time = clock();
    const throttle = new FailureThrottle({ limit: 3, windowMs: 1000, now: time.now });
    throttle.fail("k");
    time.advance(100);
    throttle.fail("k");
    expect(throttle.blockedFor("k")).toBe(0);
    throttle.fail("k");
    expect(throttle.blockedFor("k")).toBe(900);
    time.advance(900);
    expect(throttle.blockedFor("k")).toBe(0);
  });

  it("counts keys apart and forgets a cleared key", () => {
    const throttle = new FailureThrottle({ limit: 1, windowMs: 1000, now: clock().now });
    throttle.fail("a");
    expect(throttle.blockedFor("a")).toBe(1000);
    expect(throttle.blockedFor("b")).toBe(0);
    throttle.clear("a");
    expect(throttle.blockedFor("a")).toBe(0);
  });

  it("starts a new window after an expired one", () => {
    const time = clock();
    const throttle = new FailureThrottle({ limit: 2, windowMs: 1000, now: time.now });
    throttle.fail("k");
    time.advance(1000);
    throttle.fail("k");
    expect(throttle.blockedFor("k")).toBe(0);
  });
});
