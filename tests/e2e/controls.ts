/** Keyboard sequences the operator-controls scenarios share (issue 19): thresholds, staff, Settle market…. */
import type { Page } from "@playwright/test";
import { SETTINGS_TOASTS } from "../../protocol/rules";
import { expect, runCommand } from "./fixtures";

/** Types `value` into one field of /approvals' thresholds form (empty: off) and saves it. */
export async function setThreshold(page: Page, label: string, value: string) {
  await page.keyboard.press("g");
  await page.keyboard.press("Shift+E");
  await expect(page).toHaveURL(/\/approvals$/);
  await page.getByRole("form", { name: "Four-eyes thresholds" }).getByLabel(label).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(value);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Four-eyes thresholds saved")).toBeVisible();
}

/** Adds a staff member holding one flag, through the palette's Add staff…. */
export async function addStaff(page: Page, account: { username: string; password: string }, flag: string) {
  await runCommand(page, "add staff");
  await page.keyboard.type(account.username);
  await page.keyboard.press("Enter");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
  await page.keyboard.type(flag);
  await page.keyboard.press("Enter");
  await page.keyboard.press("y");
  await expect(page.getByText(SETTINGS_TOASTS.staffAdded)).toBeVisible();
}

/** On a market's pending bets, Settle market… with `runner` the winner, up to its confirmation; answers the run's dialog. */
export async function settleMarketWon(page: Page, runner: string) {
  await expect(page.locator("[data-table-row]").first()).toBeVisible();
  await runCommand(page, "Settle market");
  const chooser = page.getByRole("dialog", { name: "Settle market" });
  await expect(chooser.getByRole("listbox")).toBeVisible();
  const labels = await chooser.getByRole("option").allTextContents();
  const index = labels.findIndex((text) => text.startsWith(`${runner} `));
  for (let i = 0; i < index; i++) await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  const run = page.getByRole("dialog", { name: "Settle market" });
  await expect(run).toContainText(`${runner} won: settle`);
  return run;
}
