/**
 * The /sessions screen's forms (issue 30, ADR 0010): ending a session, ending all the others, and
 * the super admin's address allowlist. One schema each for the browser's check and the action.
 */
import { z } from "zod";
import { ROLE } from "../../../protocol/wire";
import { parseRange, rangesOf } from "../addresses";
import { ROLE_LABEL } from "../constants";

export const endSessionSchema = z.object({ intent: z.literal("end"), id: z.string().regex(/^[0-9a-f]{16}$/, "Choose a session to end") });
export const endOtherSessionsSchema = z.object({ intent: z.literal("endOthers") });

/** The roles an allowlist names, in the form's order; each field is named `role<N>`. */
export const ALLOWLIST_ROLES = [ROLE.superAdmin, ROLE.staff, ROLE.partner] as const;
export const allowlistField = (role: (typeof ALLOWLIST_ROLES)[number]) => `role${role}` as const;

/** One role's ranges typed as text (comma- or line-separated); empty: anywhere. */
const rangesField = (role: number) =>
  z
    .string()
    .max(4000, `The ${ROLE_LABEL[role]} ranges are too long`)
    .transform(rangesOf)
    .superRefine((ranges, issues) => {
      const bad = ranges.find((range) => parseRange(range) === null);
      if (bad) issues.addIssue({ code: z.ZodIssueCode.custom, message: `${bad} is not an address or CIDR range (${ROLE_LABEL[role]})` });
    });

export const allowlistSchema = z.object({
  intent: z.literal("allowlist"),
  role1: rangesField(ROLE.superAdmin),
  role2: rangesField(ROLE.staff),
  role3: rangesField(ROLE.partner),
});
export type AllowlistForm = z.infer<typeof allowlistSchema>;
