/**
 * The approval desk (issue 4), against the real platform: a request an end user makes appears
 * live, is approved by keyboard with a bonus, and a withdrawal is rejected with a remark.
 */
import { DEMO, endUser, expect, signIn, SPEC_API, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

test("a new deposit request appears live, and the keyboard approves it with a bonus", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page).toHaveTitle("Deposits - Admin");
  await expect(page.getByLabel("Realtime connection")).toHaveText("● live");

  const player = await endUser("user0002", "user123");
  const before = await player.me();
  const utr = `UTR${Date.now()}`;
  await player.deposit({ amount: 1000, type: 0, utr });
  // Within 2 seconds and without a reload (the refresh timer is 10 s).
  const row = page.getByRole("row", { name: new RegExp(utr) });
  await expect(row).toBeVisible({ timeout: 2_000 });

  await page.keyboard.press("Home");
  await expect(page.locator("[data-cursor]")).toContainText(utr);
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Are you sure you want to success this deposit?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("100"); // main bonus, INR
  await page.keyboard.press("y");
  await expect(page.getByText("Deposits updated successfully")).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => (await player.me()).balance).toBeCloseTo(before.balance + 1100, 2);

  await page.keyboard.press("2");
  await expect(page.getByRole("row", { name: new RegExp(utr) })).toBeVisible();
});

test("a withdrawal is rejected with a remark, which shows on the Fail tab", SPEC_API, async ({ page }) => {
  const player = await endUser("user0004", "user123");
  await player.withdraw({
    amount: 250,
    bank: { holder: "User Four", bank: "State Bank", accNo: "12345678901", ifsc: "SBIN0000004", branch: "Fort" },
  });
  await signIn(page, DEMO.staff);
  await page.keyboard.press("g");
  await page.keyboard.press("w");
  const row = page.getByRole("row", { name: /user0004.*12345678901/ }).first();
  await expect(row).toBeVisible();
  await row.click();
  await page.keyboard.press("r");
  const dialog = page.getByRole("dialog", { name: "Are you sure you want to fail this withdrawal?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("Account name does not match");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Withdraws updated successfully")).toBeVisible();
  await page.keyboard.press("3");
  await expect(page.getByRole("row", { name: /Account name does not match/ })).toBeVisible();
});
