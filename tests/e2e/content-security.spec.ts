/**
 * Issue 29 item 10: every screen runs under the console's Content-Security-Policy, and nothing
 * the console itself does is blocked by it: the page hydrates (its scripts carry the answer's
 * nonce) and the realtime relay connects, with no violation reported by the browser.
 */
import { SCREENS } from "../../app/lib/screens";
import { DEMO, expect, startSession, test } from "./fixtures";

/** What the browser reported blocked on this page, by event or on its console. */
let violations: string[];

test.beforeEach(async ({ page }) => {
  violations = [];
  await page.exposeFunction("reportCspViolation", (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation: (violation: string) => void }).reportCspViolation(
        `${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  // Each scenario opens its screen first: home is one of them.
  await startSession(page, DEMO.admin);
});

for (const screen of Object.values(SCREENS)) {
  test(`${screen.label} (${screen.path}) loads as the super admin under a strict policy with no violation`, async ({ page }) => {
    const response = await page.goto(screen.path);
    expect(response?.headers()["content-security-policy"]).toMatch(/(^|; )script-src 'self' 'nonce-[^']+'(;|$)/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${screen.label} - Admin`);
    // Hydrated, and the relay's websocket is open.
    await expect(page.getByLabel("Realtime connection")).toHaveText("● live");
    expect(violations).toEqual([]);
  });
}
