/**
 * The dates the API reads. Report and bet history days: `YYYY-MM-DD` Asia/Kolkata days
 * (UTC+05:30, no daylight saving) of the years DAY_YEARS, both ends inclusive, today by default.
 * Migration 008's rollup keys its rows by the same day (`settled_at` + 5:30). Date-times (the
 * market results' `since`): ISO with an offset, at an instant within the same years.
 */
import { z } from "zod";
import { blankless } from "./schemas.js";

const KOLKATA_OFFSET_MS = 330 * 60_000;
export const DAY_MS = 86_400_000;

export const kolkataToday = () => new Date(Date.now() + KOLKATA_OFFSET_MS).toISOString().slice(0, 10);
/** The instant an Asia/Kolkata day starts. */
export const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - KOLKATA_OFFSET_MS);

/**
 * The years a day may name. A day of year 0001 starts in year 0000 (UTC), which the database
 * refuses; no bet or report predates 1900, and 9999 is the last year of four digits.
 */
export const DAY_YEARS = { min: 1900, max: 9999 } as const;

const OUT_OF_YEARS = `must be in the years ${DAY_YEARS.min} to ${DAY_YEARS.max}`;

export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  // Date.parse rolls 2025-02-30 over to March; a real date reads back as itself.
  .refine((day) => new Date(Date.parse(`${day}T00:00:00Z`) || 0).toISOString().slice(0, 10) === day, "must be a real date")
  .refine((day) => Number(day.slice(0, 4)) >= DAY_YEARS.min, OUT_OF_YEARS);

/** The first and the last millisecond of DAY_YEARS, in UTC. */
const INSTANTS = { min: Date.UTC(DAY_YEARS.min, 0, 1), max: Date.UTC(DAY_YEARS.max + 1, 0, 1) - 1 };
/** A date-time's offset, `±hh:mm` or `±hhmm`: zod takes any two digits each, `-99:99` included. */
const OFFSET = /[+-](\d\d):?(\d\d)$/;
const offsetWithinADay = (text: string) => {
  const [, hours, minutes] = OFFSET.exec(text) ?? [, "0", "0"];
  return Number(hours) <= 23 && Number(minutes) <= 59;
};

/**
 * An ISO date-time with an offset (zod checks the date is real), as a Date. Its instant must lie
 * within DAY_YEARS: `0000-…` or `9999-12-31T23:59:59-23:59` would reach the database as a year it
 * refuses or a Date it cannot write, a 500 instead of this 400.
 */
export const DateTime = z
  .string()
  .datetime({ offset: true, message: "must be an ISO date-time" })
  .refine(offsetWithinADay, "must have an offset within ±23:59")
  .transform((text) => new Date(text))
  .refine((date) => date.getTime() >= INSTANTS.min && date.getTime() <= INSTANTS.max, OUT_OF_YEARS);

/** `from` and `to` of a query; refine with `fromNotAfterTo` and resolve with `dayRange`. */
export const DayRangeFields = { from: blankless(Day.optional()), to: blankless(Day.optional()) };

/** Without `from`, today; without `to`, the day `from` names. */
export const dayRange = (query: { from?: string; to?: string }) => {
  const from = query.from ?? kolkataToday();
  return { from, to: query.to ?? from };
};

export const fromNotAfterTo: [(query: { from?: string; to?: string }) => boolean, { message: string; path: string[] }] = [
  (query) => (query.from ?? "") <= (query.to ?? query.from ?? ""),
  { message: "from must not be after to", path: ["from"] },
];
