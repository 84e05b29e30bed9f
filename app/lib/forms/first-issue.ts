import type { z } from "zod";
import { MESSAGES } from "../constants";

/** A form's first problem, worded for a toast. */
export const firstIssue = (error: z.ZodError): string => error.issues[0]?.message ?? MESSAGES.fallback;
