/**
 * Console sessions (issue 30, ADR 0010), keyboard only: /sessions lists the operator's sessions and
 * ends them (`e` the cursor one, `E` all the others), an ended session is signed out on its next
 * request, a signed-out session's cookie replayed opens nothing, and an address outside the
 * allowlist is refused at sign-in.
 */
import type { Browser, Page } from "@playwright/test";
import { addStaff, DEMO, expect, signedInHeading, signIn, submitLogin, test } from "./fixtures";

/** A staff member of its own, so the sessions listed are this scenario's alone. */
async function freshStaff(page: Page) {
  const account = { username: `s${Date.now().toString(36)}`, password: "sessions-pass-1" };
  await signIn(page, DEMO.admin);
  await addStaff(page, account, "report");
  return account;
}

async function signedInElsewhere(browser: Browser, account: { username: string; password: string }) {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

async function openSessions(page: Page) {
  await page.keyboard.press("g");
  await page.keyboard.press("s");
  await expect(page).toHaveTitle("Sessions - Admin");
  return page.getByRole("grid", { name: "Sessions" });
}

test("/sessions ends another browser's session with e, which is signed out on its next request", async ({ page, browser }) => {
  // Three browsers sign in.
  test.slow();
  const staff = await freshStaff(page);
  const first = await signedInElsewhere(browser, staff);
  const second = await signedInElsewhere(browser, staff);

  const table = await openSessions(second);
  // Newest first: this session, then the first browser's.
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(1)).toContainText("this session");
  await second.keyboard.press("j");
  await second.keyboard.press("e");
  await expect(second.getByRole("dialog", { name: "End the cursor session?" })).toBeVisible();
  await second.keyboard.press("y");
  await expect(second.getByText(/^Ended .*'s session/)).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);

  await first.keyboard.press("g");
  await first.keyboard.press("c");
  await expect(first).toHaveURL(/\/login/);
});

test("E on /sessions ends every other session of the operator's", async ({ page, browser }) => {
  test.slow();
  const staff = await freshStaff(page);
  const first = await signedInElsewhere(browser, staff);
  const second = await signedInElsewhere(browser, staff);
  await openSessions(second);
  await second.keyboard.press("Shift+E");
  await expect(second.getByRole("dialog", { name: "End all your other sessions?" })).toBeVisible();
  await second.keyboard.press("y");
  await expect(second.getByText("Ended 1 other session")).toBeVisible();
  await first.keyboard.press("g");
  await first.keyboard.press("c");
  await expect(first).toHaveURL(/\/login/);
  // This one stays signed in.
  await second.keyboard.press("g");
  await second.keyboard.press("c");
  await expect(second).toHaveTitle("Change Password - Admin");
});

test("the replayed cookie of a signed-out session is refused", async ({ page, browser }) => {
  await signIn(page, DEMO.admin);
  const cookies = await page.context().cookies();
  await page.keyboard.press("Control+Shift+L");
  await expect(page).toHaveURL(/\/login$/);

  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const replayed = await replay.newPage();
  await replayed.goto("/jobs");
  await expect(replayed).toHaveURL(/\/login\?redirectTo=%2Fjobs$/);
  const data = await replay.request.get("/jobs.data?_routes=routes%2F_app.jobs", { maxRedirects: 0 });
  // Single fetch answers the loader's redirect to the sign-in screen, not the jobs.
  expect(await data.text()).toContain("/login");
});

/** Types the staff ranges into the super admin's allowlist form and saves it (Tab past the partner's field to the button). */
async function saveStaffRanges(page: Page, ranges: string) {
  const form = page.getByRole("form", { name: "Address allowlist" });
  const field = form.getByLabel("Ranges for staff");
  await field.focus();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  if (ranges) await page.keyboard.type(ranges);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Save allowlist" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Address allowlist saved")).toBeVisible();
  await expect(field).toHaveValue(ranges);
}

test("an address outside the allowlist is refused at sign-in with a clear message", async ({ page, browser }) => {
  test.slow();
  const staff = await freshStaff(page);
  await openSessions(page);
  const elsewhere = await (await browser.newContext()).newPage();
  try {
    // The browser signs in from 127.0.0.1: outside 10.0.0.0/8.
    await saveStaffRanges(page, "10.0.0.0/8");
    await submitLogin(elsewhere, staff);
    await expect(elsewhere.getByText(/^Sign-in refused: your address \S+ is not on the allowlist for staff$/)).toBeVisible();
    await expect(elsewhere).toHaveURL(/\/login/);
    await expect(signedInHeading(elsewhere, staff.username)).toHaveCount(0);
  } finally {
    await saveStaffRanges(page, "");
  }
  // Anywhere again: the same sign-in goes through.
  await signIn(elsewhere, staff);
});
