/**
 * The settlement desk against any operator's API (issue 16), keyboard only. Against a spec-only
 * API the pending queue ignores its filters and pages by 50, so a console that trusted the answer
 * would settle the first page of the whole book: here the other markets hold many pages of pending
 * bets, and afterwards exactly the chosen market's (or event's) bets are settled and every other
 * bet is still pending. The queue's count and totals are the platform's own. Runs in both projects.
 */
import type { SportsBet } from "../../../protocol/wire";
import { formatMoney } from "../../../app/lib/format";
import { allPendingBets, chooseOption, DEMO, expect, runCommand, signIn, SPEC_API, startSession, test } from "../fixtures";

test.describe.configure({ mode: "serial" });

const idsOf = (bets: readonly SportsBet[]) => bets.map((bet) => bet._id).sort();
const teamPartOf = (bet: SportsBet) => bet.event.split(" v ")[0]!.slice(0, 4);

/** The pending bets left after settling `settled`: every other bet that was pending still is, and none of `settled`. */
async function expectOnlySettled(before: readonly SportsBet[], settled: (bet: SportsBet) => boolean) {
  const after = await allPendingBets();
  expect(after.filter(settled)).toEqual([]);
  expect(idsOf(after)).toEqual(idsOf(before.filter((bet) => !settled(bet))));
}

test("Settle market… settles exactly the chosen market's bets while other markets hold pages of pending bets", SPEC_API, async ({ page }) => {
  const before = await allPendingBets();
  const target = before.find((bet) => bet.type === "odds" && bet.marketId)!;
  const inMarket = (bet: SportsBet) => bet.marketId === target.marketId;
  // More than one page (50) of other markets' bets: what a console trusting one page would have settled.
  expect(before.filter((bet) => !inMarket(bet)).length).toBeGreaterThan(50);

  await signIn(page, DEMO.admin);
  await runCommand(page, "Settle market");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText("Event with pending bets");
  await page.keyboard.type(teamPartOf(target));
  await chooseOption(page, palette, target.event);
  await expect(palette).toContainText("Market with pending bets");
  await chooseOption(page, palette, target.market);

  const dialog = page.getByRole("dialog", { name: "Settle market" });
  // The preview names the event and market from the bets themselves.
  await expect(dialog).toContainText(`Result of ${target.event} · ${target.market}`);
  await chooseOption(page, dialog, `${target.runner} won`);
  const count = before.filter(inMarket).length;
  await expect(dialog).toContainText(`${target.runner} won: settle ${count} bet`);
  await page.keyboard.press("y");
  await expect(dialog).toContainText("· 0 remaining", { timeout: 60_000 });
  await expect(dialog).toContainText("0 failed");
  await page.keyboard.press("Escape");

  await expectOnlySettled(before, inMarket);
});

test("Void bets of event… voids exactly the chosen event's bets", SPEC_API, async ({ page }) => {
  const before = await allPendingBets();
  const target = before.find((bet) => bet.marketId)!;
  const inEvent = (bet: SportsBet) => bet.eventId === target.eventId;
  expect(before.filter((bet) => !inEvent(bet)).length).toBeGreaterThan(50);

  await signIn(page, DEMO.admin);
  await runCommand(page, "Void bets of event");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText("Event with pending bets");
  await page.keyboard.type(teamPartOf(target));
  await chooseOption(page, palette, target.event);

  const dialog = page.getByRole("dialog", { name: "Void bets of event" });
  const count = before.filter(inEvent).length;
  await expect(dialog.getByRole("option", { name: `${target.event} ${count} bets` })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(dialog).toContainText(`Void ${target.event}: settle ${count} bet`);
  await page.keyboard.press("y");
  await expect(dialog).toContainText("· 0 remaining", { timeout: 60_000 });
  await expect(dialog).toContainText("0 failed");
  await page.keyboard.press("Escape");

  await expectOnlySettled(before, inEvent);
});

test("the pending queue's count and totals are the platform's, whatever its page size", SPEC_API, async ({ page }) => {
  const pending = await allPendingBets();
  const sum = (field: "amount" | "exposure") => Math.round(pending.reduce((total, bet) => total + bet[field] * 100, 0)) / 100;

  await startSession(page, DEMO.admin);
  await page.goto("/pending-sport-bets");
  await expect(page.getByText(`${pending.length} pending · stake ${formatMoney(sum("amount"))} · exposure ${formatMoney(sum("exposure"))}`)).toBeVisible();
});
