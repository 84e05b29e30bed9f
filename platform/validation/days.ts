/**
 * Report and bet history days: `YYYY-MM-DD` Asia/Kolkata days (UTC+05:30, no daylight
 * saving) of the years DAY_YEARS, both ends inclusive, today by default. Migration 008's
 * rollup keys its rows by the same day (`settled_at` + 5:30).
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

export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  // Date.parse rolls 2025-02-30 over to March; a real date reads back as itself.
  .refine((day) => new Date(Date.parse(`${day}T00:00:00Z`) || 0).toISOString().slice(0, 10) === day, "must be a real date")
  .refine((day) => Number(day.slice(0, 4)) >= DAY_YEARS.min, `must be in the years ${DAY_YEARS.min} to ${DAY_YEARS.max}`);

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
