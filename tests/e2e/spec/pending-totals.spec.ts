/**
 * Pending Sport Bets' totals (issue 20) in both projects: the platform's own sums of the queue
 * and of one event, in all and per market. The full platform answers them with the page (the
 * totals extension); against a spec-only API the console counts them itself, the whole queue in
 * the background, and shows them only whole (here the queue is under the bound it reads).
 */
import type { SportsBet } from "../../../protocol/wire";
import { formatMoney } from "../../../app/lib/format";
import { allPendingBets, DEMO, expect, onSpecApi, signIn, SPEC_API, startSession, test } from "../fixtures";

const sums = (bets: readonly SportsBet[]) => {
  const sum = (field: "amount" | "exposure") => formatMoney(Math.round(bets.reduce((total, bet) => total + bet[field] * 100, 0)) / 100);
  return `${bets.length} pending · stake ${sum("amount")} · exposure ${sum("exposure")}`;
};

test("the whole queue's totals show whole, on a switch with g b as on a load", SPEC_API, async ({ page }) => {
  const pending = await allPendingBets();
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("b");
  await expect(page).toHaveTitle("Pending Sport Bets - Admin");
  const line = page.getByText(/ pending( · |$)/);
  // Against a spec-only API the page may show before its totals: then it says they are being counted.
  if (onSpecApi()) await expect(line).toHaveText(new RegExp(`^${pending.length} pending( · stake and exposure counting…| · stake .+)$`));
  await expect(line).toHaveText(sums(pending));
  await expect(line).not.toContainText("first");

  // Away and back: the kept screen paints again and is read again, still whole.
  await page.keyboard.press("g");
  await page.keyboard.press("h");
  await expect(page).toHaveTitle("Home - Admin");
  await page.keyboard.press("g");
  await page.keyboard.press("b");
  await expect(page.getByText(/ pending( · |$)/)).toHaveText(sums(pending));
});

test("one event's totals, in all and per market", SPEC_API, async ({ page }) => {
  const pending = await allPendingBets();
  const markets = new Map<string, Set<string>>();
  for (const bet of pending) if (bet.marketId) markets.set(bet.eventId, (markets.get(bet.eventId) ?? new Set()).add(bet.marketId));
  const [eventId] = [...markets].find(([, ids]) => ids.size > 1)!;
  const ofEvent = pending.filter((bet) => bet.eventId === eventId);

  await startSession(page, DEMO.admin);
  await page.goto(`/pending-sport-bets?eventId=${encodeURIComponent(eventId)}`);
  await expect(page.getByText(/ pending( · |$)/)).toHaveText(sums(ofEvent));
  const summary = page.getByText(`Totals by market (${markets.get(eventId)!.size})`);
  await summary.focus();
  await page.keyboard.press("Enter");
  const table = page.getByRole("table", { name: "Totals by market" });
  for (const marketId of markets.get(eventId)!) {
    const bets = ofEvent.filter((bet) => bet.marketId === marketId);
    const sum = (field: "amount" | "exposure") => formatMoney(Math.round(bets.reduce((total, bet) => total + bet[field] * 100, 0)) / 100);
    await expect(table.getByRole("row", { name: `${bets[0]!.event} ${bets[0]!.market} ${bets.length} ${sum("amount")} ${sum("exposure")}` })).toBeVisible();
  }
});
