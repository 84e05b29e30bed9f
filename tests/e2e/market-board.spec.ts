/**
 * Market Analysis as a liability board (issue 21 item 3), keyboard only: every event's bettors,
 * fancy stake and worst case equal what `/market-bets` answers for it; `t` switches between worst
 * case first and start time (the cursor stays on its event), and `?` lists the key; a bet placed
 * through the end-user API repaints its row without a reload, on the relayed `market-update` (an
 * extension: the spec project runs the first two scenarios, against the spec's calls alone). With
 * SCREENSHOTS=1 the last test writes docs/screens/market-analysis-1280.png and -1440.png.
 */
import type { Locator, Page } from "@playwright/test";
import { formatMoney } from "../../app/lib/format";
import { SPORTS, type MarketBets, type SportName, type SportsEvent } from "../../protocol/wire";
import { adminApi, DEMO, endUser, expect, signIn, test } from "./fixtures";

type AdminApi = Awaited<ReturnType<typeof adminApi>>;
// The sports API sits beside the admin API on the platform.
const sportsGet = (api: AdminApi, path: string) => api.get(`/../sports${path}`);

/** What the board must show for a book, worked out here from the answer itself. */
function expectedOf(book: MarketBets) {
  const lowest = (profits: number[]) => Math.min(0, ...profits);
  const worst =
    [...book.odds, ...book.bookmakers].reduce((sum, market) => sum + lowest(market.runners.map((runner) => runner.profit)), 0) +
    Object.values(book.fancy)
      .flat()
      .reduce((sum, entry) => sum + lowest(entry.numbers.map((row) => row.profit)), 0);
  const stake = Object.values(book.fancy)
    .flat()
    .reduce((sum, entry) => sum + entry.amounts, 0);
  return {
    bettors: String(book.users.length),
    stake: formatMoney(Math.round(stake * 100) / 100),
    worst: book.users.length === 0 ? "–" : `${worst > 0 ? "▲" : "▼"} ${formatMoney(Math.abs(worst))}`,
    worstValue: worst,
  };
}

const boardOf = (page: Page, sport: SportName) => page.getByRole("region", { name: sport }).locator("tbody tr");
const idsOf = (rows: Locator) => rows.evaluateAll((each) => each.map((row) => row.getAttribute("data-event-id")!));

async function openBoard(page: Page) {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("m");
  await expect(page).toHaveTitle("Market Analysis - Admin");
  // Every row's figures have arrived.
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
}

test("each event's bettors, fancy stake and worst case equal its /market-bets, the worst case first within each sport @spec", async ({ page }) => {
  const api = await adminApi();
  await openBoard(page);
  let withBets = 0;
  for (const sport of SPORTS) {
    const rows = boardOf(page, sport);
    const worstInOrder: number[] = [];
    for (const eventId of await idsOf(rows)) {
      const book = (await sportsGet(api, `/market-bets?${new URLSearchParams({ eventId, sport })}`)) as MarketBets;
      const expected = expectedOf(book);
      const cells = page.getByRole("region", { name: sport }).locator(`tr[data-event-id="${eventId}"]`).getByRole("cell");
      await expect(cells.nth(1)).toHaveText(expected.bettors);
      await expect(cells.nth(2)).toHaveText(expected.stake);
      await expect(cells.nth(3)).toHaveText(expected.worst);
      worstInOrder.push(expected.worstValue);
      if (book.users.length > 0) withBets++;
    }
    expect(worstInOrder, `${sport}: the largest loss first`).toEqual([...worstInOrder].sort((a, b) => a - b));
  }
  // The seed's pending bets stand on several events: the board is not all dashes.
  expect(withBets).toBeGreaterThan(1);
});

test("t orders the board by start time and back by worst case, the cursor staying on its event; ? lists the key @spec", async ({ page }) => {
  const api = await adminApi();
  await openBoard(page);
  const cricket = boardOf(page, "cricket");
  const byWorst = await idsOf(cricket);
  const events = (await sportsGet(api, "/matches/cricket")) as SportsEvent[];
  const byStart = events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => Date.parse(a.event.startTime) - Date.parse(b.event.startTime) || a.index - b.index)
    .map(({ event }) => event.eventId);
  expect(byStart).not.toEqual(byWorst);

  // The cursor starts on the worst case; j moves it to the second cricket event, then t.
  const cursor = page.locator("tr[data-cursor]");
  await expect(cursor).toHaveAttribute("data-event-id", byWorst[0]!);
  await page.keyboard.press("j");
  await expect(cursor).toHaveAttribute("data-event-id", byWorst[1]!);
  await page.keyboard.press("t");
  await expect(page).toHaveURL(/\?order=start$/);
  await expect(page.getByRole("button", { name: "Order: start time" })).toBeVisible();
  await expect.poll(() => idsOf(cricket)).toEqual(byStart);
  await expect(cursor).toHaveAttribute("data-event-id", byWorst[1]!);

  await page.keyboard.press("t");
  await expect(page).not.toHaveURL(/order=/);
  await expect(page.getByRole("button", { name: "Order: worst case first" })).toBeVisible();
  await expect.poll(() => idsOf(cricket)).toEqual(byWorst);

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys" });
  await expect(help).toContainText("Order the board by worst case or by start time");
});

test("a new bet repaints its event's row without a reload, on the relayed market-update", async ({ page }) => {
  const api = await adminApi();
  await openBoard(page);
  const eventId = (await idsOf(boardOf(page, "cricket")))[0]!;
  const query = `/market-bets?${new URLSearchParams({ eventId, sport: "cricket" })}`;
  const worstCell = page.getByRole("region", { name: "cricket" }).locator(`tr[data-event-id="${eventId}"]`).getByRole("cell").nth(3);
  const before = expectedOf((await sportsGet(api, query)) as MarketBets).worst;
  await expect(worstCell).toHaveText(before);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  const book = (await sportsGet(api, query)) as MarketBets;
  const runner = book.odds[0]!.runners[0]!;
  // user0008 may log in and bet on every game (the seed's flags).
  const player = await endUser("user0008", "user123");
  // The market-update asks for this event past the console's cache (the poll never does).
  const updated = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return url.pathname === "/resources/markets/board" && url.searchParams.get("fresh") === "1" && url.searchParams.getAll("event").includes(`cricket:${eventId}`);
  });
  await player.bet({ eventId, marketId: book.odds[0]!.marketId, runner: runner.name, isBack: 1, price: runner.back.price!, amount: 5000 });
  const after = expectedOf((await sportsGet(api, query)) as MarketBets).worst;
  expect(after).not.toBe(before);
  await updated;
  await expect(worstCell).toHaveText(after);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test("screenshots of the board at 1280 × 720 and 1440 × 900", async ({ page }) => {
  test.skip(!process.env.SCREENSHOTS, "writes docs/screens/ only when SCREENSHOTS=1");
  await openBoard(page);
  for (const size of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `docs/screens/market-analysis-${size.width}.png` });
  }
});
