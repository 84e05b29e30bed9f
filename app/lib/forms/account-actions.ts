/**
 * The row panel's forms (docs/product.md §2.6, §5), each one zod schema shared by the form and the action.
 * Every form names its `intent`; money forms carry a `requestId` so that a double submit or a
 * retry applies once (the platform keeps the first result for a requestId).
 */
import { z } from "zod";
import { accountPasswordField } from "./account-rules";
import { CONTROL_CHARACTER } from "../../../protocol/rules";
import { ACCOUNT_LABEL_MAX, MESSAGES, REMARK_MAX } from "../constants";

/**
 * The account's username as the form knows it (the pick, the row, the job item), for the audit
 * trail only (issue 32): never used to authorise. One that is not a short single-line string is
 * dropped rather than refusing the action.
 */
export const accountLabelField = z
  .string()
  .trim()
  .min(1)
  .max(ACCOUNT_LABEL_MAX)
  .refine((name) => !CONTROL_CHARACTER.test(name))
  .optional()
  .catch(undefined);

const accountRef = {
  user: z.string().min(1),
  username: accountLabelField,
  isPartner: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .or(z.boolean()),
};

/** docs/product.md §5: numeric, above 0, at most 2 decimals. */
export const amountField = z
  .string()
  .trim()
  .min(1, "Amount is required")
  .regex(/^\d+(\.\d{1,2})?$/, "Amount must be a number with at most 2 decimals")
  .transform(Number)
  .refine((amount) => amount > 0, "Amount must be above 0");

/** At most REMARK_MAX characters, trimmed, and no line break or other control character (the API refuses one). */
export const remarkField = z
  .string()
  .max(REMARK_MAX, `Remark must be at most ${REMARK_MAX} characters`)
  .optional()
  .transform((remark) => remark?.trim() || undefined)
  .refine(
    (remark) => remark === undefined || !CONTROL_CHARACTER.test(remark),
    "Remark must not contain a line break or other control character",
  );

const requestId = z.string().min(8).max(64);

export const depositSchema = z.object({
  intent: z.literal("deposit"),
  ...accountRef,
  amount: amountField,
  remark: remarkField,
  requestId,
});

export const withdrawSchema = depositSchema.extend({ intent: z.literal("withdraw") });

export const userPasswordSchema = z
  .object({
    intent: z.literal("password"),
    ...accountRef,
    password: accountPasswordField,
    confirmPassword: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  });

/** Flags arrive from a form as `flag.<name>` = "on" for each switched-on flag. */
export const permissionsSchema = z.object({
  intent: z.literal("permissions"),
  ...accountRef,
  login: z.literal("on").optional().transform(Boolean),
  bet: z.literal("on").optional().transform(Boolean),
  flags: z.array(z.string()).default([]),
});

/** Sets Login or Bet (`on`: true / false), or flips it (`toggle`), keeping the other settings. */
export const switchSchema = z.object({
  intent: z.literal("switch"),
  ...accountRef,
  switch: z.enum(["login", "bet"]),
  on: z.enum(["true", "false", "toggle"]),
});

/** Role 1 makes a panel the default admin (docs/product.md §2.5 MD button). */
export const makeDefaultSchema = z.object({ intent: z.literal("makeDefault"), ...accountRef });

export const accountActionSchema = z.union([
  makeDefaultSchema,
  depositSchema,
  withdrawSchema,
  userPasswordSchema,
  permissionsSchema,
  switchSchema,
]);
export type AccountAction = z.infer<typeof accountActionSchema>;

/** Reads a submitted form: repeated `flag` fields become the `flags` list. */
export function accountActionInput(form: FormData): Record<string, unknown> {
  return { ...Object.fromEntries(form), flags: form.getAll("flag").map(String) };
}

export const newRequestId = (): string => crypto.randomUUID();
