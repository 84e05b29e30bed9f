/** Add user / add panel (docs/product.md §2.6, §4, §5), one schema for the dialog and the action. */
import { z } from "zod";
import { accountPasswordField, usernameField } from "./account-rules";
import { GAME_FLAGS } from "../../../protocol/wire";
import { MESSAGES } from "../constants";

/** docs/product.md §9: a partner needs at least 6 share values. */
export const MIN_PARTNER_SHARES = 6;

/** A share is a percentage: 0 to 100, never empty or negative (docs/product.md §5). */
const shareValue = z
  .string()
  .trim()
  .min(1, MESSAGES.invalidShare)
  .regex(/^\d+(\.\d+)?$/, MESSAGES.invalidShare)
  .transform(Number)
  .refine((share) => share <= 100, MESSAGES.invalidShare);

export const addAccountSchema = z
  .object({
    intent: z.literal("addAccount"),
    isPartner: z.enum(["true", "false"]).transform((value) => value === "true"),
    username: usernameField,
    mobNo: z
      .string()
      .trim()
      .regex(/^(\d{7,15})?$/, "Mobile number must be 7 to 15 digits")
      .transform((value) => value || undefined),
    password: accountPasswordField,
    repeatPassword: z.string(),
    flags: z.array(z.enum(GAME_FLAGS)).default([]),
    /** `share.<flag>` fields, kept only for partners. */
    shares: z.record(z.string()).default({}),
    role: z.string().optional(),
  })
  .superRefine((form, ctx) => {
    if (form.password !== form.repeatPassword) {
      ctx.addIssue({ code: "custom", path: ["repeatPassword"], message: MESSAGES.passwordMismatch });
    }
    if (!form.isPartner) return;
    const filled = Object.values(form.shares).filter((value) => value.trim() !== "");
    if (Object.values(form.shares).some((value) => !shareValue.safeParse(value).success) || filled.length < MIN_PARTNER_SHARES) {
      ctx.addIssue({ code: "custom", path: ["shares"], message: MESSAGES.invalidShare });
    }
    if (!form.role) ctx.addIssue({ code: "custom", path: ["role"], message: "Choose a role" });
  });

export type AddAccountForm = z.infer<typeof addAccountSchema>;

/** Reads the submitted dialog: repeated `flag` fields and `share.<flag>` fields. */
export function addAccountInput(form: FormData): Record<string, unknown> {
  const shares: Record<string, string> = {};
  for (const [key, value] of form) if (key.startsWith("share.")) shares[key.slice(6)] = String(value);
  return { ...Object.fromEntries(form), flags: form.getAll("flag").map(String), shares };
}

/** What POST /add-user takes (docs/product.md §7.2). */
export function addUserRequest(form: AddAccountForm) {
  return {
    username: form.username,
    password: form.password,
    repeatPassword: form.repeatPassword,
    mobNo: form.mobNo,
    isPartner: form.isPartner,
    permissions: Object.fromEntries(GAME_FLAGS.map((flag) => [flag, form.flags.includes(flag)])),
    share: form.isPartner ? Object.fromEntries(Object.entries(form.shares).map(([flag, value]) => [flag, Number(value)])) : {},
    role: form.isPartner ? form.role : undefined,
  };
}
