/**
 * Bulk from file (issue 34), keyboard only, against the real platform (and the spec-only API): a
 * 50-line deposit file with 2 bad lines is pasted into the palette; the preview names both and
 * `e` reaches each; `y` runs the 48 deposits, each balance moving once; /jobs offers the result
 * CSV (`d`), which lists all 50 lines with their outcomes.
 */
import { parse } from "csv-parse/sync";
import { balancesOf, DEMO, expect, pasteDepositFile, SPEC_API, signIn, test } from "./fixtures";

// An amount no other scenario deposits, and seeded users no other scenario touches.
const AMOUNT = 13.57;
const USERNAMES = Array.from({ length: 48 }, (_, index) => `user${String(151 + index).padStart(4, "0")}`);

test("a pasted 50-line deposit file: the preview names its 2 bad lines, y runs the 48 others once each, the result CSV lists all 50", SPEC_API, async ({ page }) => {
  const before = await balancesOf(USERNAMES);
  const file = [
    "username;amount;remark",
    ...USERNAMES.slice(0, 24).map((username) => `${username};${AMOUNT};file cashback`),
    "nobody_in_this_file;5;",
    `${USERNAMES[24]};5.555;`,
    ...USERNAMES.slice(24).map((username) => `${username};${AMOUNT};file cashback`),
  ].join("\r\n");

  await signIn(page, DEMO.admin);
  const run = await pasteDepositFile(page, file);
  await expect(run.getByRole("status")).toHaveText(`50 rows · 48 good · sum ${(48 * AMOUNT).toFixed(2)} · 2 problems (e: next problem)`);
  await page.keyboard.press("e");
  await expect(run.locator("tbody tr:focus")).toContainText("unknown user");
  await page.keyboard.press("e");
  await expect(run.locator("tbody tr:focus")).toContainText("Amount must be a number with at most 2 decimals");
  await page.keyboard.press("y");
  await expect(run.locator(".bulk-counts")).toContainText("48 done · 0 failed · 0 remaining", { timeout: 60_000 });
  await page.keyboard.press("Escape");

  await page.goto("/jobs");
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[data-table-row]").filter({ hasText: "Deposit from file" })).toHaveCount(1);
  const download = page.waitForEvent("download");
  await page.keyboard.press("d");
  const csv = parse(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"))) as string[][];
  const [, ...lines] = csv;
  expect(lines).toHaveLength(50);
  expect(lines.filter((line) => line[6] === "done")).toHaveLength(48);
  expect(lines.filter((line) => line[6] === "not sent").map((line) => line[7])).toEqual(["unknown user", "Amount must be a number with at most 2 decimals"]);
  const first = lines[0]!;
  expect(Number(first[9]) - Number(first[8])).toBeCloseTo(AMOUNT, 2);

  // Read last: the admin API's own sign-in as the super admin may end the browser's session.
  const after = await balancesOf(USERNAMES);
  for (const username of USERNAMES) expect(Math.round((after.get(username)! - before.get(username)!) * 100), username).toBe(Math.round(AMOUNT * 100));
});
