/**
 * The pending bets an operator's Settle market… (or Void bets of event…) was shown, kept a short
 * while so the job that settles them is checked against that same read instead of reading the
 * market's bets from the API a second time (issue 35; docs/decisions/0011-shown-read-checks-a-job.md).
 * Kept per session and scope in this process, taken once: a second job, another session, another
 * console instance or a read older than SHOWN_READ_TTL_MS reads the API again. Only complete reads
 * are kept, and only the server's own: nothing the browser sends stands in for one.
 */
import type { SportsBet } from "../../protocol/wire";
import { SHOWN_READ_TTL_MS } from "./constants";
import type { SettlementScope } from "./forms/settlement";

/** At most this many reads are kept; the oldest goes first. */
const KEPT_READS = 200;

const shown = new Map<string, { at: number; bets: readonly SportsBet[] }>();

const keyOf = (session: string, { eventId = "", marketId = "" }: SettlementScope) => `${session}\u0000${eventId}\u0000${marketId}`;

/** A complete read of a scope's pending bets, as this session was shown it. */
export function rememberShown(session: string, scope: SettlementScope, bets: readonly SportsBet[], now = Date.now()): void {
  const key = keyOf(session, scope);
  shown.delete(key);
  shown.set(key, { at: now, bets });
  for (const [oldest, read] of shown) {
    if (shown.size <= KEPT_READS && now - read.at <= SHOWN_READ_TTL_MS) break;
    shown.delete(oldest);
  }
}

/** The read this session was shown of the scope, once, while it is fresh; undefined otherwise. */
export function takeShown(session: string, scope: SettlementScope, now = Date.now()): readonly SportsBet[] | undefined {
  const key = keyOf(session, scope);
  const read = shown.get(key);
  shown.delete(key);
  return read && now - read.at <= SHOWN_READ_TTL_MS ? read.bets : undefined;
}
