/**
 * A bulk deposit that survives a reload (issue 19), keyboard only, against the real platform: the
 * page is reloaded mid-run; the status line counts the unfinished job, `r` on /jobs resumes it,
 * and no account was credited twice (in the audit trail).
 */
import { ACCOUNT_JOB_CHUNK_ENDPOINT } from "../../app/lib/account-jobs";
import { bulkDepositToFirst, DEMO, expect, startSession, test } from "./fixtures";

// A stake no other scenario deposits, to find this job's entries in the trail.
const AMOUNT = "10.37";

test("a bulk deposit interrupted by a reload is resumed with r: each account credited at most once, none resent", async ({ page, consoleErrors }) => {
  await startSession(page, DEMO.admin);
  await page.goto("/users?search=user0&orderBy=username&isAcc=true");
  await expect(page.locator("[data-table-row]").first()).toContainText("user0001");
  const bulk = await bulkDepositToFirst(page, 20, AMOUNT);
  await expect(bulk).toContainText(`Deposit ${AMOUNT} to each of 20 users`);
  // The first chunk answered, the second on its way, the rest held: the page goes away mid-run.
  let chunks = 0;
  let secondSent!: () => void;
  const second = new Promise<void>((resolve) => (secondSent = resolve));
  await page.route(`**${ACCOUNT_JOB_CHUNK_ENDPOINT}`, async (route) => {
    const chunk = ++chunks;
    if (chunk === 2) secondSent();
    // Held until the reload cancels it: never sent.
    if (chunk > 2) return;
    await route.continue();
  });
  await page.keyboard.press("y");
  await second;
  const before = consoleErrors.length;
  await page.reload();
  await page.unrouteAll({ behavior: "ignoreErrors" });
  // What the page reported while its run was cut off is the reload's doing.
  consoleErrors.splice(before);

  await expect(page.getByLabel("Unfinished jobs")).toContainText("jobs 1");
  await page.goto("/jobs");
  // A key pressed while the page still hydrates makes React start over (error 421): wait for its code.
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveTitle("Jobs - Admin");
  await expect(page.locator("[data-table-row]").filter({ hasText: "Bulk deposit" })).toHaveCount(1);
  await page.keyboard.press("r");
  const resumed = page.getByRole("dialog", { name: "Bulk deposit" });
  await expect(resumed).toContainText("· 0 remaining");
  // An item in flight at the reload is done (its answer was recorded) or unknown, never resent.
  const counts = /(\d+) done · (\d+) failed/.exec((await resumed.textContent()) ?? "")!;
  expect(Number(counts[1]) + Number(counts[2])).toBe(20);
  await page.keyboard.press("Escape");

  const csv = await (await page.request.get(`/resources/audit/download?call=userDeposit`)).text();
  const credited = new Map<string, number>();
  for (const line of csv.split("\n")) {
    if (!line.includes(`""amount"":${AMOUNT}`)) continue;
    const user = /""user"":""(\d+)""/.exec(line)?.[1];
    if (user) credited.set(user, (credited.get(user) ?? 0) + 1);
  }
  expect([...credited.values()].filter((times) => times > 1)).toEqual([]);
  expect(credited.size).toBeGreaterThanOrEqual(19);
});
