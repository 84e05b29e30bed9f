/**
 * Number, money and time display (docs/product.md §9): 2 decimals, `DD/MM/YY hh:mm a`. Every time shows in
 * one zone, the configured `TIME_ZONE`, on server and browser alike (so the page never changes on
 * hydration): the root loader sends it and the root component sets it before anything renders.
 */
import { DEFAULT_TIME_ZONE } from "./constants";

const money = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Amounts grouped the way Indian operators read them: 1,00,000.00. */
export const formatMoney = (amount: number): string => money.format(amount);

/** A profit or loss's sign: `+`, a true minus `−`, or nothing for zero. */
export const profitSign = (amount: number): string => (amount > 0 ? "+" : amount < 0 ? "−" : "");

const wholeMoney = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

/** A whole amount with its sign, in the same grouping, for a chart's axis: +1,00,000 · −500 · 0. */
export const formatSignedWhole = (amount: number): string => `${profitSign(amount)}${wholeMoney.format(Math.abs(amount))}`;

export function formatBalance(balance: number | "unlimited"): string {
  return balance === "unlimited" ? "unlimited" : formatMoney(balance);
}

// 24-hour parts only: ICU versions (Node's, each browser's) disagree on 12-hour details such as
// midnight ("00" or "12") and the am/pm text, and the page must render the same on both sides.
const partsIn = (timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    year: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });

let dateParts = partsIn(DEFAULT_TIME_ZONE);

/** The zone every time shows in; one configuration for the whole console, so set once at start. */
export function setDisplayTimeZone(timeZone: string): void {
  if (dateParts.resolvedOptions().timeZone !== partsIn(timeZone).resolvedOptions().timeZone) dateParts = partsIn(timeZone);
}

const partsOf = (date: Date) => Object.fromEntries(dateParts.formatToParts(date).map((p) => [p.type, p.value]));

const pad = (value: number) => String(value).padStart(2, "0");

/** `DD/MM/YY hh:mm a`, or with seconds for deposits and withdrawals (docs/product.md §9). */
export function formatDateTime(iso: string, withSeconds = false): string {
  const parts = partsOf(new Date(iso));
  const hour24 = Number(parts.hour) % 24;
  const hour12 = pad(hour24 % 12 || 12);
  const time = withSeconds ? `${hour12}:${parts.minute}:${parts.second}` : `${hour12}:${parts.minute}`;
  return `${parts.day}/${parts.month}/${parts.year} ${time} ${hour24 < 12 ? "am" : "pm"}`;
}

/** The status line's clock, `hh:mm:ss` (24-hour) in the same zone as every other time. */
export function formatClock(date: Date): string {
  const parts = partsOf(date);
  return `${pad(Number(parts.hour) % 24)}:${parts.minute}:${parts.second}`;
}
