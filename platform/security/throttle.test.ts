import { describe, expect, it } from "vitest";
import { FailureThrottle } from "./throttle.js";

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A throttle of `limit` failures a second, on a clock the test moves. */
function throttleOn(limit: number) {
  const time = clock();
  return { time, throttle: new FailureThrottle({ limit, windowMs: 1000, now: time.now }) };
}

describe("FailureThrottle", () => {
  it("blocks a key at the limit until its window ends", () => {
    const { time, throttle } = throttleOn(3);
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
    const { throttle } = throttleOn(1);
    throttle.fail("a");
    expect(throttle.blockedFor("a")).toBe(1000);
    expect(throttle.blockedFor("b")).toBe(0);
    throttle.clear("a");
    expect(throttle.blockedFor("a")).toBe(0);
  });

  it("starts a new window after an expired one", () => {
    const { time, throttle } = throttleOn(2);
    throttle.fail("k");
    time.advance(1000);
    throttle.fail("k");
    expect(throttle.blockedFor("k")).toBe(0);
  });
});
