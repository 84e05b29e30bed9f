/**
 * Four-eyes forms (issue 19, ADR 0009): the super admin's thresholds on /approvals, and a checker's
 * approve or reject of a held action. One schema each for the browser's check and the action.
 */
import { z } from "zod";

/** The longest an approval may wait: thirty days. */
export const EXPIRY_HOURS_MAX = 720;

/** The longest rolling window of the cumulative thresholds: thirty days. */
export const CUMULATIVE_HOURS_MAX = 720;

const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** A threshold typed as text: empty is off (null), else it must match `pattern`. */
const offOr = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || pattern.test(value), message)
    .transform((value) => (value === "" ? null : Number(value)));

export const thresholdsSchema = z.object({
  intent: z.literal("thresholds"),
  transferAbove: offOr(AMOUNT, "The credit/debit threshold must be an amount, or empty for off"),
  decisionAbove: offOr(AMOUNT, "The approval threshold must be an amount, or empty for off"),
  jobItemsAbove: offOr(/^\d{1,7}$/, "The job's number of items must be a whole number, or empty for off"),
  jobTotalAbove: offOr(AMOUNT, "The job's total must be an amount, or empty for off"),
  // A form from before the rolling windows (issue 29) leaves them off.
  accountCumulativeAbove: offOr(AMOUNT, "An account's total over the window must be an amount, or empty for off").default(""),
  operatorCumulativeAbove: offOr(AMOUNT, "An operator's total over the window must be an amount, or empty for off").default(""),
  cumulativeHours: z.coerce
    .number({ invalid_type_error: "The window must be a number of hours" })
    .int("The window must be whole hours")
    .min(1, "The window must be at least 1 hour")
    .max(CUMULATIVE_HOURS_MAX, `The window must be at most ${CUMULATIVE_HOURS_MAX} hours`)
    .default(24),
  /** A checkbox: present when on. */
  resettle: z
    .string()
    .optional()
    .transform((value) => value === "on"),
  expiryHours: z.coerce
    .number({ invalid_type_error: "The expiry must be a number of hours" })
    .int("The expiry must be whole hours")
    .min(1, "The expiry must be at least 1 hour")
    .max(EXPIRY_HOURS_MAX, `The expiry must be at most ${EXPIRY_HOURS_MAX} hours`),
});
export type ThresholdsForm = z.infer<typeof thresholdsSchema>;

export const approvalDecisionSchema = z.object({
  intent: z.enum(["approve", "reject"]),
  id: z.string().uuid(),
});
