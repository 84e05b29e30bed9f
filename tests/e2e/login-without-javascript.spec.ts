/**
 * Issue 7 item 7: the login form is a real POST form. Submitted before hydration or with
 * JavaScript off, the route's action signs in, and the password never travels in a URL.
 */
import type { Page } from "@playwright/test";
import { DEMO, expect, signedInHeading, test } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** Every URL the page asks for, so a test can say none carried the password. */
function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

async function submit(page: Page, account: { username: string; password: string }, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
}

test("signs in without JavaScript and never puts the password in a URL", async ({ page }) => {
  const urls = recordUrls(page);
  await submit(page, DEMO.admin);
  await expect(signedInHeading(page, DEMO.admin.username)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) expect(url).not.toContain(DEMO.admin.password);
});

test("goes where it was headed after signing in without JavaScript", async ({ page }) => {
  const urls = recordUrls(page);
  await page.goto("/change-password");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fchange-password$/);
  await page.getByLabel("Username").fill(DEMO.staff.username);
  await page.getByLabel("Password").fill(DEMO.staff.password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page).toHaveTitle("Change Password - Admin");
  for (const url of urls) expect(url).not.toContain(DEMO.staff.password);
});

test("a wrong password without JavaScript shows the server's message on the login screen", async ({ page }) => {
  const urls = recordUrls(page);
  await submit(page, { username: "admin", password: "not-the-password" });
  await expect(page.getByRole("alert")).toHaveText("Invalid username or password");
  await expect(page).toHaveURL(/\/login$/);
  for (const url of urls) expect(url).not.toContain("not-the-password");
});

/** Issue 15 item 5: where a sign-in may go next. Browsers drop tabs and newlines and read `\` as `/`. */
const HOSTILE_TARGETS = ["/\t/evil.example/phish", "/\n/evil.example/phish", "/\u3000/evil.example", "/\\evil.example", "//evil.example"];

for (const target of HOSTILE_TARGETS) {
  test(`a sign-in without JavaScript headed for ${JSON.stringify(target)} lands on the console's home`, async ({ page, baseURL }) => {
    await page.goto(`/login?redirectTo=${encodeURIComponent(target)}`);
    await page.getByLabel("Username").fill(DEMO.admin.username);
    await page.getByLabel("Password").fill(DEMO.admin.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(signedInHeading(page, DEMO.admin.username)).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });
}

test("a plain form POST with a hostile redirectTo is answered 302 to /", async ({ page, baseURL }) => {
  for (const target of HOSTILE_TARGETS) {
    const response = await page.request.post(`/login?redirectTo=${encodeURIComponent(target)}`, {
      form: { ...DEMO.admin, redirectTo: target },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(response.status(), target).toBe(302);
    expect(response.headers()["location"], target).toBe("/");
  }
});
