/** Change own password (docs/product.md §2.10, §5), shared by the form and its action. */
import { z } from "zod";
import { MESSAGES } from "../constants";
import { PASSWORD_RULE } from "./account-rules";


export const newPasswordField = z
  .string()
  .min(1, "New Password is required")
  .min(PASSWORD_RULE.min, `New Password must be at least ${PASSWORD_RULE.min} characters`)
  .max(PASSWORD_RULE.max);

export const ownPasswordSchema = z
  .object({
    curPassword: z.string().min(1, "Old Password is required").max(PASSWORD_RULE.max),
    password: newPasswordField,
    confirmPassword: z.string().min(1, "Confirm Password is required"),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: MESSAGES.ownPasswordMismatch,
    path: ["confirmPassword"],
  });
export type OwnPasswordForm = z.infer<typeof ownPasswordSchema>;
