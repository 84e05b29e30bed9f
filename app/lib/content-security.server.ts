/**
 * The Content-Security-Policy of the console's pages (issue 29): scripts only from the console
 * itself or inline with the answer's own nonce (Remix's hydration, scroll restoration and
 * streaming scripts, React's), so a script an attacker manages to inject into a page does not
 * run. entry.server draws a nonce per answer and sends the policy with the page.
 */
import { randomBytes } from "node:crypto";
import { env } from "./env.server";

export const newScriptNonce = (): string => randomBytes(16).toString("base64");

/** The API hosts: the scorecard frame is the sports API's page (docs/product.md §2.14). */
const API_ORIGINS = [...new Set([env.ADMIN_API_URL, env.SPORTS_API_URL].map((url) => new URL(url).origin))];

/** `development`: Vite's dev server serves the app, its client on a websocket of its own port. */
export function contentSecurityPolicy(nonce: string, { development }: { development: boolean }): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    // Style attributes React renders, and the <style> elements react-hot-toast (and in development Vite) add.
    "style-src": ["'self'", "'unsafe-inline'"],
    // The slider's previews of chosen files are data: URLs.
    "img-src": ["'self'", "data:"],
    // The realtime relay is the console's own socket.io, same origin ('self' covers its ws: and wss:).
    "connect-src": ["'self'", ...(development ? ["ws:", "wss:"] : [])],
    // A scorecard address another API answers may be any host's, over HTTPS.
    "frame-src": ["'self'", ...API_ORIGINS, "https:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    // As X-Frame-Options: DENY (app/lib/express-app.server.ts): no page frames the console.
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}
