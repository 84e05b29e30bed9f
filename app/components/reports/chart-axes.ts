/**
 * The daily chart's scales and ticks, apart from uPlot so each rule is tested on its own. A report
 * day is a calendar date drawn on a UTC axis as a slot from its midnight to the next, its bar in
 * the middle; the x scale is exactly the chosen days, the y scale whole round steps through zero.
 */
const DAY_SECONDS = 86_400;
/** Past this many days, labels go on the first of each month rather than every nth day. */
const MONTH_TICKS_AFTER = 62;

/** A day's midnight in seconds (uPlot's x unit). */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Where a day's bar stands: the middle of its slot. */
export const dayCentre = (day: string): number => dayStart(day) + DAY_SECONDS / 2;

/** The day whose slot holds this instant (seconds). */
export const dayAt = (seconds: number): string => new Date(Math.floor(seconds / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);

/** The x scale: the first day's midnight to the midnight after the last day, nothing around it. */
export const dayScale = (days: readonly string[]): [number, number] => [dayStart(days[0]!), dayStart(days.at(-1)!) + DAY_SECONDS];

/** The console's date order: `DD/MM`, with `/YY` when asked (a range across years, the text table). */
export const dayLabel = (day: string, withYear: boolean): string =>
  `${day.slice(8, 10)}/${day.slice(5, 7)}${withYear ? `/${day.slice(2, 4)}` : ""}`;

/** Whether the range crosses a year, so its labels need the year. */
export const spansYears = (days: readonly string[]): boolean => days[0]!.slice(0, 4) !== days.at(-1)!.slice(0, 4);

/** The days that get a label when `room` labels fit side by side: every day, every nth, or on long ranges month starts. */
export function dayTicks(days: readonly string[], room: number): string[] {
  const fit = Math.max(1, Math.floor(room));
  const candidates = days.length > MONTH_TICKS_AFTER ? days.filter((day) => day.endsWith("-01")) : days;
  const step = Math.ceil(candidates.length / fit);
  return candidates.filter((_, index) => index % step === 0);
}

/** 1, 2 or 5 times a power of ten, at least `raw` and never below 1 (labels are whole). */
function roundStep(raw: number): number {
  if (raw <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 5, 10].find((f) => f * magnitude >= raw)!;
  return factor * magnitude;
}

/** An all-zero range still gets an axis of this height, so it reads as a flat zero line. */
const EMPTY_SPAN = 100;

/**
 * The y scale: whole round steps covering every value and zero, about `room` of them.
 * `splits` are the labelled values, from `min` to `max`.
 */
export function profitScale(values: readonly number[], room: number): { min: number; max: number; splits: number[] } {
  const low = Math.min(0, ...values);
  const high = low === 0 && Math.max(0, ...values) === 0 ? EMPTY_SPAN : Math.max(0, ...values);
  const step = roundStep((high - low) / Math.max(1, Math.floor(room)));
  const min = Math.floor(low / step) * step;
  const max = Math.ceil(high / step) * step;
  return { min, max, splits: Array.from({ length: Math.round((max - min) / step) + 1 }, (_, i) => min + i * step) };
}
