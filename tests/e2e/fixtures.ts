/**
 * Shared e2e fixtures: any console error or uncaught page error fails the test. A browser's own
 * "Failed to load resource … 4xx" line is allowed: a refused sign-in or form answers 4xx by design.
 */
import { expect, test as base, type Page } from "@playwright/test";

const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 4\d\d/;

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !EXPECTED_REFUSAL.test(message.text())) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const DEMO = {
  admin: { username: "admin", password: "admin123" },
  staff: { username: "staff", password: "staff123" },
  panel: { username: "panel1", password: "panel123" },
} as const;

/** Types the credentials with the keyboard alone (type, Tab, type, Enter) on the login screen. */
export async function submitLogin(page: Page, account: { username: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Username").focus();
  await page.keyboard.type(account.username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
}

/** Signs in with the keyboard and waits for the shell. */
export async function signIn(page: Page, account: { username: string; password: string }) {
  await submitLogin(page, account);
  await expect(page.getByRole("heading", { name: `Signed in as ${account.username}` })).toBeVisible();
}

/** Opens the palette with Ctrl+K and runs the best match for `text`. */
export async function runCommand(page: Page, text: string) {
  await page.keyboard.press("Control+k");
  await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}
