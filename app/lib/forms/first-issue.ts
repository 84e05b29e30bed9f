import type { z } from "zod";
import { MESSAGES } from "../constants";

/** A form's first problem, worded for a toast. */
export const firstIssue = (error: z.ZodError): string => error.issues[0]?.message ?? MESSAGES.fallback;

/** The first problem of one value against a schema, or null when it passes. */
export function problemOf(schema: z.ZodTypeAny, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssue(result.error);
}
