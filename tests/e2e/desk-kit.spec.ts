/**
 * The desk kit (issue 8): `?` lists the showing screen's keys from the registry, and a button, a
 * key and the palette run the same command, with the same confirmation and the same arguments.
 */
import type { Page } from "@playwright/test";
import { DEMO, expect, runCommand, signIn, test } from "./fixtures";

test.beforeEach(async ({ page }) => {
  await signIn(page, DEMO.admin);
});

/** Opens a screen and waits until its script runs (the status line's clock ticks only then). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByLabel("Status line")).not.toContainText("--:--:--");
}

test("? on Users lists the list's keys, the search key and the global keys", async ({ page }) => {
  await open(page, "/users");
  await expect(page.getByRole("grid", { name: "Users" })).toBeVisible();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys" });
  await expect(help.getByRole("table").first()).toContainText("Users");
  for (const text of ["Cursor down", "Select or unselect the row", "Select the page", "Next page", "Previous page", "Open the row's panel", "Search"]) {
    await expect(help).toContainText(text);
  }
  await expect(help).toContainText("Go to Home");
  await expect(help).not.toContainText("Pending tab");
});

test("? on Deposits lists the tabs and the decision keys", async ({ page }) => {
  await open(page, "/deposits");
  await expect(page.getByRole("grid", { name: "Deposits" })).toBeVisible();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys" });
  for (const text of ["Pending tab", "Success tab", "Fail tab", "Success: approve the cursor request…", "Fail: reject the cursor request…", "Next page"]) {
    await expect(help).toContainText(text);
  }
  await expect(help).not.toContainText("Search");
});

test("the MD button and the palette's Make default admin… both ask before changing anything", async ({ page }) => {
  await open(page, "/partners");
  await expect(page.getByText("default admin: panel1")).toBeVisible();
  const palette = page.getByRole("dialog", { name: "Command palette" });

  await page.getByRole("row", { name: /panel1/ }).getByRole("button", { name: "MD" }).click();
  await expect(palette).toContainText("Make panel1 the default admin?");
  await page.keyboard.press("n");
  await expect(palette).toHaveCount(0);

  await runCommand(page, "make default admin");
  await expect(palette).toContainText("Panel");
  await page.keyboard.type("panel1");
  await expect(palette.getByRole("option", { name: /panel1/ }).first()).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(palette).toContainText("Make panel1 the default admin?");
  await page.keyboard.press("Escape");
  await expect(palette).toHaveCount(0);
  await expect(page.getByText("Default admin changed successfully")).toHaveCount(0);
  await expect(page.getByText("default admin: panel1")).toBeVisible();
});

/** The CSV lines of a download. */
async function csvLines(download: import("@playwright/test").Download): Promise<string[]> {
  expect(download.suggestedFilename()).toMatch(/^users-\d{8}\.csv$/);
  return (await (await download.createReadStream()).toArray()).join("").trim().split("\n");
}

test("Download from the button and from the palette both keep the list's search", async ({ page }) => {
  await open(page, "/users?search=user000");
  const [fromButton] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Users" }).click()]);
  const [fromPalette] = await Promise.all([page.waitForEvent("download"), runCommand(page, "download users")]);
  for (const download of [fromButton, fromPalette]) {
    const lines = await csvLines(download);
    expect(lines.slice(1).every((line) => line.includes("user000"))).toBe(true);
    expect(lines).toHaveLength(10);
  }
});
