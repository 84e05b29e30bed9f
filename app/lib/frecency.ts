/**
 * Frecency (issue 32): how often and how recently an operator chose a palette command, as one
 * number that halves every FRECENCY_HALF_LIFE_HOURS. A use adds 1 to what is left of the earlier
 * ones, so fifty uses today outweigh a hundred last month. Browser-safe: the palette ranks with
 * it, the store keeps it (app/lib/store/frecency.server.ts).
 */

/** A use three days ago counts half of one now. */
export const FRECENCY_HALF_LIFE_HOURS = 72;
const HALF_LIFE_MS = FRECENCY_HALF_LIFE_HOURS * 3_600_000;

/** A command's uses, decayed to `usedAt` (epoch ms). */
export type Frecency = { score: number; usedAt: number };

/** What is left of `use` at `now`. */
export const decayedAt = (use: Frecency, now: number): number => use.score * 0.5 ** (Math.max(0, now - use.usedAt) / HALF_LIFE_MS);

/** `use` after one more use at `now`. */
export const usedOnceMore = (use: Frecency | undefined, now: number): Frecency => ({ score: (use ? decayedAt(use, now) : 0) + 1, usedAt: now });

/** Uses at which the boost reaches one half: a few recent uses count, many saturate. */
const HALF_BOOST = 3;

/** The palette's boost for a decayed score: 0 (never used) up to, but never reaching, 1. */
export const boostOf = (score: number): number => score / (score + HALF_BOOST);
