/**
 * Issue 7 item 2: the approval dialog shows the site's bonus limits beside the bonus inputs,
 * and the platform's refusal of a bonus above them shows in the dialog, naming the limit.
 */
import { DEMO, endUser, expect, signIn, test } from "./fixtures";

test("the approval dialog shows the bonus limits and the refusal of a bonus above them", async ({ page }) => {
  await signIn(page, DEMO.admin);
  const player = await endUser("user0003", "user123");
  const utr = `LIMIT${Date.now()}`;
  await player.deposit({ amount: 1000, type: 0, utr });
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page).toHaveTitle("Deposits - Admin");

  const row = page.getByRole("row", { name: new RegExp(utr) });
  await row.click();
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Are you sure you want to success this deposit?" });
  await expect(dialog.getByLabel("Bonus limits")).toHaveText("Bonus limit: 100% of the deposit, 1,00,000.00 per decision");

  await page.keyboard.type("1000.01"); // main bonus, INR: above 100 % of 1,000
  await page.keyboard.press("y");
  await expect(dialog.getByRole("alert")).toHaveText("Bonus exceeds the limit of 100% of the deposit");
  await page.keyboard.press("Escape");
  await expect(row).toBeVisible();
});
