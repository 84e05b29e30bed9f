/**
 * Saved views and the column chooser (issue 32, docs/ux.md "Views and columns"), keyboard only: on
 * /users `C` hides two columns and moves one, `V` saves that as the default view, and after signing
 * out, a new browser opening /users gets it. A link naming a column the screen no longer has
 * opens without it and says so.
 */
import type { Page } from "@playwright/test";
import { DEMO, expect, openPalette, signIn, startSession, test } from "./fixtures";

const headers = async (page: Page) =>
  (await page.getByRole("grid", { name: "Users" }).getByRole("columnheader").allInnerTexts()).map((text) =>
    text.replace(/[▲▼]/g, "").trim(),
  );

const press = async (page: Page, key: string, times: number) => {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
};

test("a default view hides, orders and follows the operator to a new browser @spec", async ({ page, browser }) => {
  await startSession(page, DEMO.admin);
  await page.goto("/users");
  await expect(page.getByRole("grid", { name: "Users" }).getByRole("columnheader", { name: "Created Time" })).toBeVisible();
  const own = await headers(page);
  const expected = own.filter((header) => header !== "Mob No." && header !== "Message");
  expected.splice(expected.indexOf("Balance"), 1);
  expected.splice(2, 0, "Balance");

  // C: hide Mob No. and Message, then move Balance up above where they were.
  await page.keyboard.press("C");
  const chooser = page.getByRole("dialog", { name: "Columns" });
  const lines = chooser.getByRole("listbox", { name: "Columns" });
  await expect(lines).toBeFocused();
  await press(page, "ArrowDown", own.indexOf("Mob No."));
  await page.keyboard.press("Space");
  await press(page, "ArrowDown", own.indexOf("Message") - own.indexOf("Mob No."));
  await page.keyboard.press("Space");
  await press(page, "j", own.indexOf("Balance") - own.indexOf("Message"));
  await expect(lines.getByRole("option", { selected: true })).toContainText("Balance");
  await press(page, "Shift+K", own.indexOf("Balance") - 2);
  await page.keyboard.press("Escape");
  await expect(chooser).toHaveCount(0);
  await expect.poll(() => headers(page)).toEqual(expected);
  await expect(page).toHaveURL(/[?&]cols=id%2Cusername%2Cbalance%2C/);

  // V: save it under a name, as the default.
  await page.keyboard.press("V");
  const menu = page.getByRole("dialog", { name: "Views" });
  await expect(menu.getByRole("combobox", { name: "View name" })).toBeFocused();
  await page.keyboard.type("Lean desk");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await expect(menu.getByRole("checkbox", { name: "Default view" })).toBeChecked();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByText("View “Lean desk” saved")).toBeVisible();
  await expect(menu.getByRole("option", { name: /Lean desk · default/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+L");
  await expect(page).toHaveURL(/\/login$/);

  // Another browser: /users opens with the default view.
  const elsewhere = await (await browser.newContext()).newPage();
  await signIn(elsewhere, DEMO.admin);
  await elsewhere.goto("/users");
  await expect.poll(() => headers(elsewhere)).toEqual(expected);
  await expect(elsewhere).toHaveURL(/[?&]cols=/);

  // The palette reaches the chooser too, and is gone in the frame that shows it (never both open: the page's keys
  // would wait on a palette still closing); `?` lists both keys.
  await openPalette(elsewhere);
  await elsewhere.keyboard.type("Columns…");
  await elsewhere.evaluate(() => {
    const both = () => !!document.querySelector('[role=dialog][aria-label="Columns"]') && !!document.querySelector('[role=dialog][aria-label="Command palette"]');
    new MutationObserver(() => {
      if (both()) document.body.dataset.bothDialogs = "seen";
    }).observe(document.body, { subtree: true, childList: true });
  });
  await elsewhere.keyboard.press("Enter");
  await expect(elsewhere.getByRole("dialog", { name: "Columns" }).getByRole("listbox", { name: "Columns" })).toBeFocused();
  expect(await elsewhere.evaluate(() => document.body.dataset.bothDialogs)).toBeUndefined();
  await elsewhere.keyboard.press("Escape");
  await elsewhere.keyboard.press("?");
  const help = elsewhere.getByRole("dialog", { name: "Keys" });
  await expect(help).toContainText("Columns: show, order, width");
  await expect(help).toContainText("Views: apply, save, delete");
  await elsewhere.keyboard.press("Escape");

  // A link naming a column the screen no longer has: shown without it, and said.
  await elsewhere.goto("/users?cols=username,gone,id");
  await expect(elsewhere.getByText("Not sent any more, left out of this view: gone")).toBeVisible();
  await expect.poll(() => headers(elsewhere)).toEqual(["Username", "ID"]);

  // Delete the view, so other specs' /users opens as the screen's own.
  await elsewhere.keyboard.press("V");
  const views = elsewhere.getByRole("dialog", { name: "Views" });
  await expect(views.getByRole("option", { selected: true })).toContainText("Lean desk");
  await elsewhere.keyboard.press("Delete");
  await expect(elsewhere.getByText("View “Lean desk” deleted")).toBeVisible();
  await expect(views.getByText("No views saved for this screen yet.")).toBeVisible();
});
