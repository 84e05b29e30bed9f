/**
 * Admin Management's forms (docs/product.md §2.12, §5): add a staff member with its flags, remove one. One
 * schema each for the screen, the palette's steps and the action. Username and password follow
 * the platform's account and password rules.
 */
import { z } from "zod";
import { STAFF_FLAGS, type StaffFlag } from "../../../protocol/wire";
import { accountPasswordField, usernameField } from "./account-rules";

export const staffUsernameField = usernameField;

/** The flags as the palette takes them: names separated by commas or spaces, or `none`. */
export const staffFlagsText = z
  .string()
  .trim()
  .transform((text) => (text.toLowerCase() === "none" ? [] : text.split(/[\s,]+/).filter(Boolean).map((flag) => flag.toLowerCase())))
  .pipe(z.array(z.enum(STAFF_FLAGS, { errorMap: () => ({ message: `Flags are ${STAFF_FLAGS.join(", ")} or none` }) })));

export const addStaffSchema = z.object({
  intent: z.literal("add"),
  username: staffUsernameField,
  password: accountPasswordField,
  flags: z.array(z.enum(STAFF_FLAGS)).default([]),
});

export const removeStaffSchema = z.object({ intent: z.literal("remove"), username: staffUsernameField });

export const staffActionSchema = z.discriminatedUnion("intent", [addStaffSchema, removeStaffSchema]);

/** Reads a posted staff form: one `flag` field per checked box, or one comma-separated `flag` from the palette. */
export const addStaffInput = (form: FormData) => ({
  ...Object.fromEntries(form),
  flags: form.getAll("flag").flatMap((value) => String(value).split(",")).filter(Boolean),
});

/** What POST /b2c/add-admin takes: every staff flag as a boolean. */
export const permissionsOf = (flags: readonly StaffFlag[]): Record<StaffFlag, boolean> =>
  Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, flags.includes(flag)])) as Record<StaffFlag, boolean>;
