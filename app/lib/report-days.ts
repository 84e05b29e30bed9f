/**
 * The reports' days: `YYYY-MM-DD` Asia/Kolkata days (docs/protocol.md "Reports (platform)"), whatever zone the
 * console shows times in, and the range presets the report screens offer on keys.
 */
const KOLKATA_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

export const REPORT_PRESETS = ["today", "yesterday", "week", "month"] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The preset's `from` and `to` (both inclusive); a week starts on Monday. */
export function presetRange(preset: ReportPreset, now: Date = new Date()): { from: string; to: string } {
  const local = now.getTime() + KOLKATA_OFFSET_MS;
  const today = dayOf(local);
  if (preset === "today") return { from: today, to: today };
  if (preset === "yesterday") {
    const yesterday = dayOf(local - DAY_MS);
    return { from: yesterday, to: yesterday };
  }
  if (preset === "week") return { from: dayOf(local - ((new Date(local).getUTCDay() + 6) % 7) * DAY_MS), to: today };
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** The last `days` days, today the last. */
export function recentRange(days: number, now: Date = new Date()): { from: string; to: string } {
  const { to } = presetRange("today", now);
  return { from: dayOf(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS), to };
}

/** Every day from `from` to `to`, for a chart without gaps. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) days.push(dayOf(ms));
  return days;
}
