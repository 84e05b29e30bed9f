/** The platform's rule for any new password (own or an account's), checked here first so nothing doomed is sent. */
import { z } from "zod";

export const PASSWORD_RULE = { min: 6, max: 128 } as const;

/** An account's new password, as the row panel and the add dialog ask for it. */
export const accountPasswordField = z
  .string()
  .min(PASSWORD_RULE.min, `Password must be at least ${PASSWORD_RULE.min} characters`)
  .max(PASSWORD_RULE.max);
