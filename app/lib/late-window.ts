/**
 * Void late bets…'s window start as the operator types it: a wall-clock time `HH:MM[:SS]` in the
 * console's time zone (the incident), or a span before the window's end such as `-90s`, `-5m` or
 * `-1h30m` (the end being the market's close, or now). A clock time later than the end is read
 * as the day before (an incident before midnight, a close after).
 */
export const WINDOW_PROBLEM = "Type the start as HH:MM or HH:MM:SS, or as a span before the end: -90s, -5m, -1h30m";
export const WINDOW_EMPTY = "The window would start after its end";

const RELATIVE = /^-(?=\d)(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s)?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;

/** The zone's wall clock at `instant`, read as if it were UTC, minus the instant: the zone's offset then. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant the zone's clock shows `h:m:s` on the calendar day `YYYY-MM-DD` (the audit trail's time range too). */
export function wallTimeAt(day: string, [h = 0, m = 0, s = 0]: number[], timeZone: string): number {
  const guess = Date.parse(`${day}T00:00:00Z`) + ((h * 60 + m) * 60 + s) * 1000;
  const first = guess - offsetAt(guess, timeZone);
  // Across a change of offset, the offset at the answer itself is the one that holds.
  return guess - offsetAt(first, timeZone);
}

/** The instant the zone's clock shows `h:m:s` on the zone's calendar day of `day`. */
const wallTimeOn = (day: number, time: number[], timeZone: string): number =>
  wallTimeAt(new Date(day + offsetAt(day, timeZone)).toISOString().slice(0, 10), time, timeZone);

export type WindowStart = { from: Date; problem?: undefined } | { from?: undefined; problem: string };

export function windowStartOf(text: string, end: Date, timeZone: string): WindowStart {
  const typed = text.trim().toLowerCase();
  const relative = RELATIVE.exec(typed);
  let from: number;
  if (relative) {
    const [, h = "0", m = "0", s = "0"] = relative;
    from = end.getTime() - ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
  } else {
    const clock = CLOCK.exec(typed);
    const time = clock ? [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)] : null;
    if (!time || time[0]! > 23 || time[1]! > 59 || time[2]! > 59) return { problem: WINDOW_PROBLEM };
    from = wallTimeOn(end.getTime(), time, timeZone);
    if (from > end.getTime()) from = wallTimeOn(end.getTime() - DAY_MS, time, timeZone);
  }
  return from >= end.getTime() ? { problem: WINDOW_EMPTY } : { from: new Date(from) };
}

/** Whether a bet placed at `createdAt` is inside the window (both ends included). */
export const inWindow = (createdAt: string, from: Date, end: Date) => {
  const at = Date.parse(createdAt);
  return at >= from.getTime() && at <= end.getTime();
};
