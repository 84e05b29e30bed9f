/**
 * Four-eyes (issue 19, ADR 0009), keyboard only, against the real platform: the super admin sets a
 * credit threshold on /approvals; a staff member's deposit above it goes pending and they cannot
 * approve it themselves; the super admin approves it (`a`, one confirmation: Esc cancels, `y` performs), the deposit is made once, /audit names
 * maker and checker, and `! <username>` finds it. Only the spec's calls are used, so it runs in the `spec` project too.
 * Issue 29: approving a deposit is measured (and previewed) by what it credits, bonuses included;
 * a rolling window per account holds the credit that takes its total above it, naming the earlier ones.
 */
import type { Page } from "@playwright/test";
import { formatMoney } from "../../app/lib/format";
import { addStaff, DEMO, depositFromPalette, endUser, expect, runCommand, setFourEyesThresholds, signIn, SPEC_API, test } from "./fixtures";

const ACCOUNT = "user0042";
// Far above what any other scenario deposits, so the threshold holds only this test's deposit.
const THRESHOLD = "50000";
const AMOUNT = `${50_000 + (Date.now() % 1000)}.41`;
const MAKER = { username: `fe${Date.now() % 1_000_000}`, password: "fourEyes123" };

const CREDIT = "Credit or debit above (empty: off)";
const DECISION = "Approving a deposit or withdrawal above (empty: off)";
const ACCOUNT_WINDOW = "One account's total over the window above (empty: off)";

/** The thresholds this scenario set, turned off after it. */
const set = new Set<string>();
const setThresholds = (page: Page, values: Record<string, string>) => {
  for (const label of Object.keys(values)) set.add(label);
  return setFourEyesThresholds(page, values);
};

test.afterEach(async ({ browser }) => {
  // Off again, so no other scenario's deposit waits.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, DEMO.admin);
  await setFourEyesThresholds(page, Object.fromEntries([...set].map((label) => [label, ""])));
  set.clear();
});

test("a credit above the threshold waits for a second operator, who performs it once", SPEC_API, async ({ page, browser }) => {
  await signIn(page, DEMO.admin);
  await setThresholds(page, { [CREDIT]: THRESHOLD });

  // A staff member with `users` makes the deposit.
  await addStaff(page, MAKER, "users");

  const maker = await (await browser.newContext()).newPage();
  await signIn(maker, MAKER);
  await depositFromPalette(maker, ACCOUNT, AMOUNT);
  await expect(maker.getByText(`Sent for approval (four-eyes): above ${THRESHOLD}`)).toBeVisible();

  // The maker sees it, marked theirs, and `a` does nothing.
  await maker.keyboard.press("g");
  await maker.keyboard.press("Shift+E");
  const mine = maker.getByRole("grid", { name: "Approvals" }).getByRole("row").filter({ hasText: AMOUNT });
  await expect(mine).toContainText("yours: another operator approves");
  await expect(maker.getByLabel("Status line")).toContainText("4e");
  await maker.keyboard.press("a");
  await expect(maker.getByRole("dialog")).toHaveCount(0);
  await maker.reload();
  await expect(mine).toHaveCount(1);

  // The super admin's open /approvals shows it without a reload: the count is pushed, the page follows.
  const held = page.getByRole("grid", { name: "Approvals" }).getByRole("row").filter({ hasText: AMOUNT });
  await expect(held).toContainText(MAKER.username);
  await expect(held).toContainText("may approve");
  await expect(page.getByLabel("Pending approvals")).toBeVisible();
  // The cursor onto the row (the list keys), then `a`.
  const rows = page.getByRole("grid", { name: "Approvals" }).locator("[data-table-row]");
  const index = (await rows.allTextContents()).findIndex((text) => text.includes(AMOUNT));
  for (let step = 0; step < index; step++) await page.keyboard.press("j");
  // `a` asks once, naming what will be performed; Esc cancels and nothing happens.
  await page.keyboard.press("a");
  const confirm = page.getByRole("dialog", { name: "Approve and perform this action?" });
  await expect(confirm).toContainText(`Deposit ${AMOUNT}`);
  await expect(confirm).toContainText(`Performs userDeposit once, as you, with ${MAKER.username}'s exact request`);
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(held).toHaveCount(1);
  await page.keyboard.press("a");
  await expect(confirm).toContainText(`Deposit ${AMOUNT}`);
  await page.keyboard.press("y");
  await expect(page.getByText(/Approved and performed: Deposit/)).toBeVisible();
  await expect(held).toHaveCount(0);
  // A second `a` finds nothing of this deposit to approve.
  await page.keyboard.press("a");
  await expect(page.getByRole("dialog").filter({ hasText: AMOUNT })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Made once: one entry, by the checker, naming both; its balance moved by the amount.
  await page.keyboard.press("g");
  await page.keyboard.press("Shift+A");
  const deposit = page.getByRole("grid", { name: "Audit Trail" }).getByRole("row").filter({ hasText: `made by ${MAKER.username}` });
  await expect(deposit).toHaveCount(1);
  await expect(deposit.getByRole("gridcell", { name: "Deposit", exact: true })).toBeVisible();
  await expect(deposit.getByRole("gridcell", { name: "ok", exact: true })).toBeVisible();
  await expect(deposit).toContainText(`four-eyes: made by ${MAKER.username}, approved by admin`);
  await expect(deposit).toContainText(formatMoney(Number(AMOUNT)));
  const money = async (cell: number) => Number(((await deposit.getByRole("gridcell").nth(cell).textContent()) ?? "").replace(/,/g, ""));
  // The columns: #, Time, Operator, Action, Account, Amount, Before, After.
  expect((await money(7)) - (await money(6))).toBeCloseTo(Number(AMOUNT), 2);

  // `! <username>` in the palette finds it among what was done to the account.
  await page.keyboard.press("Control+k");
  const trail = page.getByRole("dialog", { name: "Command palette" });
  await expect(trail.getByRole("combobox")).toBeFocused();
  await page.keyboard.type(`!${ACCOUNT}`);
  await expect(trail.getByRole("option").filter({ hasText: "Deposit by admin" }).filter({ hasText: formatMoney(Number(AMOUNT)) })).toHaveCount(1);
});

test("approving a deposit is measured by what it credits: the dialog shows it, and the bonus takes it above the threshold", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.admin);
  await setThresholds(page, { [DECISION]: "1500" });
  const utr = `UTR4E${Date.now()}`;
  await (await endUser("user0003", "user123")).deposit({ amount: 1000, type: 0, utr });

  // The save leaves the focus in the form: the palette, not `g d`, goes on.
  await runCommand(page, "Go to Deposits");
  await expect(page).toHaveURL(/\/deposits$/);
  const row = page.getByRole("row", { name: new RegExp(utr) });
  await expect(row).toBeVisible();
  await row.click();
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Are you sure you want to success this deposit?" });
  await expect(dialog.getByLabel("Credits")).toHaveText(`Credits ${formatMoney(1000)}`);
  await page.keyboard.type("600"); // main bonus, INR
  await expect(dialog.getByLabel("Credits")).toHaveText(`Credits ${formatMoney(1600)}`);
  await page.keyboard.press("y");
  await expect(page.getByText("Sent for approval (four-eyes): above 1500")).toBeVisible();

  await page.keyboard.press("g");
  await page.keyboard.press("Shift+E");
  await expect(page.getByRole("grid", { name: "Approvals" }).getByRole("row").filter({ hasText: "credits 1600" })).toHaveCount(1);
});

test("a rolling window holds the credit that takes one account's total above it, naming the earlier ones", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.admin);
  await setThresholds(page, { [ACCOUNT_WINDOW]: "2000" });
  const form = page.getByRole("form", { name: "Four-eyes thresholds" });
  await expect(form.getByLabel(ACCOUNT_WINDOW)).toHaveAccessibleDescription(/Holds the credit, debit or approval that takes what one account moved/);

  const account = "user0044";
  for (let credit = 0; credit < 2; credit++) {
    await depositFromPalette(page, account, "999");
    await expect(page.getByText("Deposit added successfully").last()).toBeVisible();
  }
  await depositFromPalette(page, account, "999");
  const held = page.getByText(/^Sent for approval \(four-eyes\): account user \d+ moved 2997 in 24 h with this, above 2000 \(earlier: 999 userDeposit/);
  await expect(held).toBeVisible();
});
