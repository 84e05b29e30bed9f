/**
 * The audit trail (issue 19, ADR 0009), keyboard only, against the real platform: a deposit made
 * from the palette is on /audit (g A) as the desk names it (Deposit, issue 32) with its maker, the
 * account's username, amount and balances; `! <username>` in the palette finds it and opens the
 * trail on that account, and L on the account's row does too.
 */
import { depositFromPalette, DEMO, expect, signIn, test } from "./fixtures";

const ACCOUNT = "user0042";
// An amount no other scenario deposits, so its row is this test's.
const AMOUNT = `${40 + (Date.now() % 50)}.37`;

test("a deposit done in the console is on /audit, found by ! <username> and by L on its row @spec", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await depositFromPalette(page, ACCOUNT, AMOUNT);
  await expect(page.getByText("Deposit added successfully")).toBeVisible();

  await page.keyboard.press("g");
  await page.keyboard.press("Shift+A");
  await expect(page).toHaveURL(/\/audit$/);
  const table = page.getByRole("grid", { name: "Audit Trail" });
  const deposit = table.getByRole("row").filter({ has: page.getByRole("gridcell", { name: "Deposit", exact: true }) }).filter({ hasText: AMOUNT });
  await expect(deposit).toHaveCount(1);
  await expect(deposit.getByRole("gridcell", { name: ACCOUNT, exact: true })).toBeVisible();
  await expect(deposit.getByRole("gridcell", { name: "admin", exact: true })).toBeVisible();
  await expect(deposit.getByRole("gridcell", { name: "ok", exact: true })).toBeVisible();
  await expect(table.getByRole("row").filter({ has: page.getByRole("gridcell", { name: "Sign in", exact: true }) }).first()).toContainText("admin");

  // `!` searches the trail for what was done to or by the account.
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette.getByRole("combobox")).toBeFocused();
  await page.keyboard.type(`!${ACCOUNT}`);
  const hit = palette.getByRole("option").filter({ hasText: "Deposit by admin" }).filter({ hasText: AMOUNT });
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText(ACCOUNT);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/audit\\?account=${ACCOUNT}$`));
  await expect(deposit).toHaveCount(1);
  // The newest entry of the account is the deposit: Enter opens its panel, which names the API's call.
  await expect(table.getByRole("row").nth(1)).toContainText(AMOUNT);
  await page.keyboard.press("Enter");
  await expect(page.getByText(/^userDeposit · account \d+$/)).toBeVisible();
  await page.keyboard.press("Escape");

  // L on the account's row of the users list opens the same trail.
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  await expect(page.getByRole("searchbox", { name: "Search username" })).toBeVisible();
  await page.keyboard.press("/");
  await page.keyboard.type(ACCOUNT);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("row", { name: new RegExp(ACCOUNT) })).toBeVisible();
  await page.keyboard.press("Shift+L");
  await expect(page).toHaveURL(new RegExp(`/audit\\?account=${ACCOUNT}$`));
  await expect(deposit).toHaveCount(1);
});
