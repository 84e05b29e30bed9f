/**
 * Counts failures per key in a fixed window, in memory. A key is blocked once it has
 * `limit` failures inside the window that began at its first failure. Per process: with
 * several instances each keeps its own counts, which still bounds guessing per instance.
 */
export type ThrottleOptions = { limit: number; windowMs: number; now?: () => number };

export class FailureThrottle {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { failures: number; endsAt: number }>();
  #nextSweepAt = 0;

  constructor({ limit, windowMs, now = Date.now }: ThrottleOptions) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Milliseconds until `key` may try again; 0 when it is not blocked. */
  blockedFor(key: string): number {
    const window = this.#live(key);
    return window && window.failures >= this.#limit ? window.endsAt - this.#now() : 0;
  }

  fail(key: string): void {
    const now = this.#now();
    this.#sweep(now);
    const window = this.#live(key);
    if (window) window.failures += 1;
    else this.#windows.set(key, { failures: 1, endsAt: now + this.#windowMs });
  }

  clear(key: string): void {
    this.#windows.delete(key);
  }

  #live(key: string) {
    const window = this.#windows.get(key);
    return window && window.endsAt > this.#now() ? window : undefined;
  }

  // Drops expired windows at most once per window length, so memory stays bounded by
  // the keys seen in one window without a timer to clean up.
  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + this.#windowMs;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }
}
