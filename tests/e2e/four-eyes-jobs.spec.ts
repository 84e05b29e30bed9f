/**
 * Four-eyes on jobs (issue 19), keyboard only, against the real platform:
 * - with a job threshold of 1 item, the super admin's Settle market… is held and sends nothing; a
 *   staff member with `bets` approves it on /approvals (`a`, then `y`), the console runs it once,
 *   and none of the market's bets is left pending on the platform;
 * - with a job total threshold, a Bulk deposit to 3 users is held whole and credits nothing; a
 *   staff member with `users` approves it, and each user is credited once (balances and trail).
 */
import type { Page } from "@playwright/test";
import { addStaff, allPendingBets, bulkDepositToFirst, DEMO, endUser, expect, openSettleMarket, setFourEyesThresholds, signIn, test } from "./fixtures";

const CHECKER = { username: `fj${Date.now() % 1_000_000}`, password: "fourEyes123" };
const JOB_ITEMS = "Job (settlement or bulk) of more items than (empty: off)";
const JOB_TOTAL = "Job whose stakes or amounts total above (empty: off)";

test.afterEach(async ({ browser }) => {
  // Off again, so no other scenario's job waits.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, DEMO.admin);
  await setFourEyesThresholds(page, { [JOB_ITEMS]: "", [JOB_TOTAL]: "" });
});

/** As `checker`, on /approvals: walks to the one held `call`, approves it (`a`, `y`). */
async function approveHeld(checker: Page, call: string) {
  await checker.keyboard.press("g");
  await checker.keyboard.press("Shift+E");
  const rows = checker.getByRole("grid", { name: "Approvals" }).locator("[data-table-row]");
  await expect(rows.filter({ hasText: call })).toHaveCount(1);
  const at = (await rows.allTextContents()).findIndex((text) => text.includes(call));
  for (let step = 0; step < at; step++) await checker.keyboard.press("j");
  await checker.keyboard.press("a");
  const confirm = checker.getByRole("dialog", { name: "Approve and perform this action?" });
  await expect(confirm).toContainText(`Performs ${call} once, as you`);
  await checker.keyboard.press("y");
}

test("a settlement job above the job threshold waits; a second operator's approval settles it once", async ({ page, browser }) => {
  // Two operators, a threshold set and a staff member added: longer than one scenario.
  test.slow();
  // A market with a back price on offer, and three more bets on it.
  const offer = (await allPendingBets()).find((bet) => bet.type === "odds" && bet.isBack && bet.marketId)!;
  const bet = { eventId: offer.eventId, marketId: offer.marketId!, runner: offer.runner, isBack: 1 as const, price: offer.x, amount: 10 };
  let placed = 0;
  for (let n = 81; n <= 120 && placed < 3; n++) {
    const player = await endUser(`user${String(n).padStart(4, "0")}`, "user123").catch(() => null);
    if (player && (await player.bet(bet).then(() => true, () => false))) placed++;
  }
  const onMarket = async () => (await allPendingBets()).filter((pending) => pending.marketId === offer.marketId);
  expect((await onMarket()).length).toBeGreaterThanOrEqual(3);

  await signIn(page, DEMO.admin);
  await setFourEyesThresholds(page, { [JOB_ITEMS]: "1" });
  await addStaff(page, CHECKER, "bets");

  const run = await openSettleMarket(page, offer);
  await page.keyboard.press("y");
  await expect(run).toContainText("Sent for approval (four-eyes): more than 1 bets");
  // Held: nothing was sent.
  expect((await onMarket()).length).toBeGreaterThanOrEqual(3);
  await page.keyboard.press("Escape");

  const checker = await (await browser.newContext()).newPage();
  await signIn(checker, CHECKER);
  await approveHeld(checker, "settleJob");
  await expect(checker.getByText(/Approved and performed: Settle market.*: \d+ settled, 0 failed/)).toBeVisible({ timeout: 20_000 });
  expect(await onMarket()).toEqual([]);
});

// A credit no other scenario makes, to find this job's entries in the trail.
const AMOUNT = "9.41";

test("a bulk deposit above the job total waits whole; a second operator's approval credits each user once", async ({ page, browser }) => {
  test.slow();
  const bulkChecker = { username: `fb${Date.now() % 1_000_000}`, password: "fourEyes123" };
  await signIn(page, DEMO.admin);
  await setFourEyesThresholds(page, { [JOB_TOTAL]: "20" });
  await addStaff(page, bulkChecker, "users");

  await page.goto("/users?search=user0&orderBy=username&isAcc=true");
  const rows = page.locator("[data-table-row]");
  await expect(rows.first()).toContainText("user0001");
  const balances = async () =>
    Promise.all([0, 1, 2].map(async (index) => Number(((await rows.nth(index).locator("[role=gridcell]").nth(5).textContent()) ?? "").replace(/,/g, ""))));
  const before = await balances();
  const bulk = await bulkDepositToFirst(page, 3, AMOUNT);
  await expect(bulk).toContainText(`Deposit ${AMOUNT} to each of 3 users (total 28.23)?`);
  await page.keyboard.press("y");
  await expect(bulk).toContainText("Sent for approval (four-eyes): total above 20");
  await page.keyboard.press("Escape");
  // Held whole: nothing was credited.
  await page.reload();
  await expect(rows.first()).toContainText("user0001");
  expect(await balances()).toEqual(before);

  const checker = await (await browser.newContext()).newPage();
  await signIn(checker, bulkChecker);
  await approveHeld(checker, "accountJob");
  await expect(checker.getByText("Approved and performed: Bulk deposit: 3 accounts, total 28.23: 3 done, 0 failed")).toBeVisible({ timeout: 20_000 });

  await page.reload();
  await expect(rows.first()).toContainText("user0001");
  expect(await balances()).toEqual(before.map((balance) => Math.round((balance + Number(AMOUNT)) * 100) / 100));
  // Each credit went once, as the checker, naming the maker.
  const csv = await (await page.request.get(`/resources/audit/download?call=userDeposit`)).text();
  const credits = csv.split("\n").filter((line) => line.includes(`""amount"":${AMOUNT}`));
  expect(credits).toHaveLength(3);
  expect(credits.every((line) => line.includes(bulkChecker.username) && line.includes(`made by ${DEMO.admin.username}`))).toBe(true);
});
