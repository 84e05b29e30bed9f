/**
 * The report screens (issue 11), keyboard first, against the real platform: a partner opens
 * Report V1 and V2 with `g r` / `g R`, moves the range with the preset keys, sees Profit or Loss
 * in words and signs, the daily chart, and a report for one of its users from the palette.
 */
import type { Page } from "@playwright/test";
import { DEMO, expect, onSpecApi, runCommand, signIn, SPEC_API, test } from "./fixtures";

const KOLKATA_OFFSET_MS = 330 * 60_000;
const kolkataDay = (daysAgo = 0) => new Date(Date.now() + KOLKATA_OFFSET_MS - daysAgo * 86_400_000).toISOString().slice(0, 10);
const FIGURE = /^(Profit \+|Loss −|Even )[\d,]+\.\d\d$/;

/** The daily chart drawn; against a spec-only API, which has no daily series (an extension), the screen's word for its absence. */
async function expectDailyChart(page: Page) {
  if (onSpecApi()) {
    await expect(page.getByText("No daily chart: the operator's API does not send the reports' daily series")).toBeVisible();
    return;
  }
  const chart = page.getByRole("figure", { name: "Daily profit and loss" });
  await expect(chart).toHaveAttribute("data-ready", "true");
  await expect(chart.locator("canvas")).toBeVisible();
}

test("a partner reads Report V1 and V2 by keyboard, with the date presets and the chart", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.panel);
  await page.keyboard.press("g");
  await page.keyboard.press("r");
  await expect(page).toHaveTitle("Report V1 - Admin");
  await expect(page.getByRole("heading", { name: /Report V1 · / })).toContainText(kolkataDay());
  const total = page.getByRole("listitem", { name: "Profit: Total" });
  await expect(total).toBeVisible();

  // This month: from the first of the month to today (Asia/Kolkata days).
  await page.keyboard.press("m");
  await expect(page).toHaveURL(new RegExp(`from=${kolkataDay().slice(0, 8)}01&to=${kolkataDay()}`));
  await expect(page.getByRole("heading", { name: /Report V1 · / })).toContainText(`to ${kolkataDay()}`);
  const monthTotal = (await total.locator("span").nth(1).textContent())!;
  expect(monthTotal).toMatch(FIGURE);
  await expectDailyChart(page);

  // The presets are screen keys, listed by `?`.
  await page.keyboard.press("?");
  await expect(page.getByText("Range: this month")).toBeVisible();
  await page.keyboard.press("Escape");

  await page.keyboard.press("g");
  await page.keyboard.press("R");
  await expect(page).toHaveTitle("Report V2 - Admin");
  await page.keyboard.press("m");
  await expect(page).toHaveURL(/report-v2\?from=/);
  for (const group of ["Direct users", "Indirect users", "My share: direct plus indirect users"]) {
    await expect(page.getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("listitem", { name: "My share: direct plus indirect users: Total" }).locator("span").nth(1)).toHaveText(FIGURE);
  await expectDailyChart(page);

  await page.keyboard.press("y");
  await expect(page).toHaveURL(new RegExp(`from=${kolkataDay(1)}&to=${kolkataDay(1)}`));
  await page.keyboard.press("w");
  await expect(page).toHaveURL(new RegExp(`to=${kolkataDay()}`));
  await page.keyboard.press("t");
  await expect(page).toHaveURL(new RegExp(`from=${kolkataDay()}&to=${kolkataDay()}`));
});

test("Report for… picks a user and opens its report; the bare report address opens V1", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.panel);
  await runCommand(page, "Report for");
  await page.keyboard.type("user0001");
  await expect(page.getByRole("option", { name: /user0001/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveTitle("Report V1 - Admin");
  await expect(page).toHaveURL(/type=user&username=user0001/);
  await expect(page.getByRole("heading", { name: /Report V1 · user0001/ })).toBeVisible();

  await page.goto("/report?from=2026-01-01&to=2026-01-31");
  await expect(page).toHaveURL(/\/report-v1\?from=2026-01-01&to=2026-01-31/);
});
