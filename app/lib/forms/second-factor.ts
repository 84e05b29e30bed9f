/** What the second step sends (issue 30), checked the same in the browser and by the server. */
import { z } from "zod";

const totp = z.object({ method: z.literal("totp"), code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app") });
const recovery = z.object({ method: z.literal("recovery"), code: z.string().trim().min(12, "Enter one of your recovery codes").max(32) });
const passkey = z.object({ method: z.literal("passkey"), response: z.object({ id: z.string().min(1).max(1024) }).passthrough() });

/** One factor given: an authenticator code, a recovery code, or a passkey's signature. */
export const factorAnswerSchema = z.discriminatedUnion("method", [totp, recovery, passkey]);
export type FactorAnswer = z.infer<typeof factorAnswerSchema>;
export type FactorMethod = FactorAnswer["method"];

/**
 * Sign-in's second step posted as a plain form to the login route (typed and sent before the page
 * hydrated, or without JavaScript): `intent`, the code and which kind (`factor`, as the form
 * element's own `method` property would shadow a field of that name).
 */
export const SECOND_STEP_INTENT = "secondFactor";
/** A posted second step that is neither kind of code (a hand-made post: a passkey, a field missing or oversized). */
export const POSTED_FACTOR_REFUSED = "Send a code from your authenticator app, or one of your recovery codes";
export const postedFactorSchema = z
  .object({
    factor: z.enum(["totp", "recovery"], { errorMap: () => ({ message: POSTED_FACTOR_REFUSED }) }),
    code: z.string({ required_error: POSTED_FACTOR_REFUSED }).max(64, POSTED_FACTOR_REFUSED),
  })
  .transform(({ factor, code }) => ({ method: factor, code }))
  .pipe(z.discriminatedUnion("method", [totp, recovery]));

/** The roles that must use a second factor, typed as `1,2` (role numbers) or `none`. */
export const policyRolesText = z
  .string()
  .trim()
  .toLowerCase()
  .refine((text) => /^(none|[123](\s*,\s*[123])*)$/.test(text), "Type role numbers (1 super admin, 2 staff, 3 partner) such as 1,2, or none")
  .transform((text) => (text === "none" ? [] : [...new Set(text.split(",").map(Number))].sort()));
export const policySchema = z.object({ intent: z.literal("policy"), roles: policyRolesText });

export const resetSchema = z.object({ intent: z.literal("reset"), username: z.string().trim().min(1, "Username is required").max(64) });
export const removePasskeySchema = z.object({ intent: z.literal("removePasskey"), id: z.string().min(1).max(1024) });

export const passkeyNameSchema = z.string().trim().min(1, "Name the passkey").max(40);
