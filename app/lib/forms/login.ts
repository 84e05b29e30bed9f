/** The login form (docs/product.md §2.4), shared by the login screen and the /session action. */
import { z } from "zod";

export const loginSchema = z.object({
  username: z.string().trim().min(1, "Username is required").max(64),
  password: z.string().min(1, "Password is required").max(128),
  // A target the form cannot take goes home like any other unsafe one, never blocking the sign-in.
  redirectTo: z.string().max(2048).optional().catch(undefined),
});
export type LoginForm = z.infer<typeof loginSchema>;

/**
 * Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil` and `/\evil` leave
 * the origin; control, format and space characters (U+3000 too) also make an invalid Location.
 */
const UNSAFE = /[\p{C}\p{Z}\s\\]/u;
const ORIGIN = "http://console.invalid";

/**
 * Where to go after signing in: a path on the console's own origin, never the login screen or
 * /session; anything else is `fallback`. The answer is the resolved, percent-encoded path, so it
 * is always a valid Location header.
 */
export function safeRedirect(to: string | undefined | null, fallback = "/"): string {
  if (!to || !to.startsWith("/") || to.startsWith("//") || UNSAFE.test(to)) return fallback;
  const url = new URL(to, ORIGIN);
  const path = url.pathname.replace(/\/+$/, "");
  if (url.origin !== ORIGIN || path === "/login" || path.startsWith("/session")) return fallback;
  return url.pathname + url.search + url.hash;
}
