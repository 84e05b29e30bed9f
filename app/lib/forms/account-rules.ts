/** The platform's rules for a new account's username and any new password, checked here first so nothing doomed is sent. */
import { z } from "zod";
import { USERNAME } from "../../../protocol/rules";

/** A new account's username (user, panel or staff), by the rule the platform enforces too. */
export const usernameField = z
  .string()
  .trim()
  .min(USERNAME.min, USERNAME.lengthMessage)
  .max(USERNAME.max, USERNAME.lengthMessage)
  .regex(USERNAME.pattern, "Username may use letters, digits, _ . and - only");

export const PASSWORD_RULE = { min: 6, max: 128 } as const;

/** An account's new password, as the row panel and the add dialog ask for it. */
export const accountPasswordField = z
  .string()
  .min(PASSWORD_RULE.min, `Password must be at least ${PASSWORD_RULE.min} characters`)
  .max(PASSWORD_RULE.max);
