/** The login form (spec §2.4), shared by the login screen and the /session action. */
import { z } from "zod";

export const loginSchema = z.object({
  username: z.string().trim().min(1, "Username is required").max(64),
  password: z.string().min(1, "Password is required").max(128),
  redirectTo: z.string().max(2048).optional(),
});
export type LoginForm = z.infer<typeof loginSchema>;

/** Only local paths, never back to the login screen, never protocol-relative (`//evil`). */
export function safeRedirect(to: string | undefined | null, fallback = "/"): string {
  if (!to || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (to === "/login" || to.startsWith("/login?") || to.startsWith("/session")) return fallback;
  return to;
}
