/**
 * Four-eyes on a settlement job (issue 19), keyboard only, against the real platform: with a job
 * threshold of 1 bet, the super admin's Settle market… is held and sends nothing; a staff member
 * with `bets` approves it on /approvals (`a`, then `y`), the console runs it once, and none of the
 * market's bets is left pending on the platform.
 */
import { addStaff, allPendingBets, DEMO, endUser, expect, openSettleMarket, setFourEyesThreshold, signIn, test } from "./fixtures";

const CHECKER = { username: `fj${Date.now() % 1_000_000}`, password: "fourEyes123" };
const JOB_ITEMS = "Settlement job of more bets than (empty: off)";

test.afterEach(async ({ browser }) => {
  // Off again, so no other scenario's settlement waits.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, DEMO.admin);
  await setFourEyesThreshold(page, JOB_ITEMS, "");
});

test("a settlement job above the job threshold waits; a second operator's approval settles it once", async ({ page, browser }) => {
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
  await setFourEyesThreshold(page, JOB_ITEMS, "1");
  await addStaff(page, CHECKER, "bets");

  const run = await openSettleMarket(page, offer);
  await page.keyboard.press("y");
  await expect(run).toContainText("Sent for approval (four-eyes): more than 1 bets");
  // Held: nothing was sent.
  expect((await onMarket()).length).toBeGreaterThanOrEqual(3);
  await page.keyboard.press("Escape");

  const checker = await (await browser.newContext()).newPage();
  await signIn(checker, CHECKER);
  await checker.keyboard.press("g");
  await checker.keyboard.press("Shift+E");
  const rows = checker.getByRole("grid", { name: "Approvals" }).locator("[data-table-row]");
  await expect(rows.filter({ hasText: "settleJob" })).toHaveCount(1);
  const at = (await rows.allTextContents()).findIndex((text) => text.includes("settleJob"));
  for (let step = 0; step < at; step++) await checker.keyboard.press("j");
  await checker.keyboard.press("a");
  const confirm = checker.getByRole("dialog", { name: "Approve and perform this action?" });
  await expect(confirm).toContainText("Performs settleJob once, as you");
  await checker.keyboard.press("y");
  await expect(checker.getByText(/Approved and performed: Settle market.*: \d+ settled, 0 failed/)).toBeVisible({ timeout: 20_000 });
  expect(await onMarket()).toEqual([]);
});
