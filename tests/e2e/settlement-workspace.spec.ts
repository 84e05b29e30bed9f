/**
 * The settlement workspace (issue 18), keyboard only, against the real platform. The feed is driven
 * through the simulator's interface (POST /api/test/feed/finish/{eventId}, NODE_ENV=test): events
 * the demo seed bet on are played to their end, their markets close with results and appear in
 * /settlement; Enter then y settles a market as reported, c settles one by another runner, and
 * Void late bets… voids exactly the bets placed inside a window while the others stay pending.
 * The first scenario also runs against a spec-only API, where the workspace asks for the result.
 */
import type { Page } from "@playwright/test";
import { seal } from "../../protocol/envelope";
import type { Page as ListPage, SportsBet } from "../../protocol/wire";
import { adminApi, allPendingBets, betAsFirstAllowed, DEMO, expect, onSpecApi, platformUrl, signIn, SPEC_API, startSession, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

type Offer = { eventId: string; marketId: string; runner: string; price: number; event: string };
/** Players who may bet (a seeded user may have Login, Bet or a sport off: the first allowed places each bet). */
const PLAYERS = ["user0031", "user0032", "user0033", "user0034", "user0035", "user0036", "user0037", "user0038"];

/** Match-odds markets of the seed with a back price on offer, one per event (the feed does not move by itself in tests). */
async function oddsMarkets() {
  const markets = new Map<string, Offer>();
  for (const bet of await allPendingBets()) {
    if (bet.type === "odds" && bet.isBack && bet.marketId && ![...markets.values()].some((offer) => offer.eventId === bet.eventId)) {
      markets.set(bet.marketId, { eventId: bet.eventId, marketId: bet.marketId, runner: bet.runner, price: bet.x, event: bet.event });
    }
  }
  return [...markets.values()];
}

/** Places a back bet and answers its id, found in the player's history. */
async function back(offer: Offer, amount: number): Promise<string> {
  const { eventId, marketId, runner, price } = offer;
  const username = await betAsFirstAllowed(PLAYERS, "user123", { eventId, marketId, runner, price, isBack: 1, amount });
  const api = await adminApi();
  const users = (await api.get(`/users?username=${username}`)) as ListPage<{ _id: string; username: string }>;
  const userId = users.items.find((user) => user.username === username)!._id;
  const history = (await api.get(`/user-bets?user=${userId}&type=0&pageSize=500`)) as ListPage<SportsBet>;
  return history.items.find((bet) => bet.marketId === offer.marketId && bet.amount === amount && bet.status === "PENDING")!._id;
}

/** A market's pending bets, read page by page and kept by their own marketId (a spec-only API ignores the filter). */
const pendingOf = async (marketId: string) => (await allPendingBets()).filter((bet) => bet.marketId === marketId);

const statusOf = async (id: string, marketId: string) => ((await pendingOf(marketId)).some((bet) => bet._id === id) ? "PENDING" : "SETTLED");

/** A user's sports bets over the last 8 days (the seed placed its bets over the past week). */
async function historyOf(userId: string): Promise<SportsBet[]> {
  const day = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata" }).format(ms);
  const query = new URLSearchParams({ user: userId, type: "0", pageSize: "500", from: day(Date.now() - 8 * 86_400_000), to: day(Date.now()) });
  return ((await (await adminApi()).get(`/user-bets?${query}`)) as ListPage<SportsBet>).items;
}

/** Plays the event to its end through the feed simulator; the results it closed its markets with. */
async function finish(eventId: string) {
  const response = await fetch(`${platformUrl()}/api/test/feed/finish/${encodeURIComponent(eventId)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    // Every POST to the platform is an envelope, this one of nothing.
    body: JSON.stringify({ payload: seal({}, process.env.API_SECRET ?? "betdesk-dev-api-secret") }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { markets: { marketId: string; result: string }[] }).markets;
}

/** Moves the workspace's cursor to the row holding `text`. */
async function cursorTo(page: Page, text: string) {
  const rows = page.locator("[data-table-row]");
  const target = rows.filter({ hasText: text });
  await expect(target).toHaveCount(1);
  const index = (await rows.allTextContents()).findIndex((row) => row.includes(text));
  await page.keyboard.press("Home");
  for (let i = 0; i < index; i++) await page.keyboard.press("j");
  await expect(target).toHaveAttribute("data-cursor", "");
}

/** Chooses the runner `winner` in the Result dialog. */
async function answerResult(page: Page, winner: string) {
  const options = page.getByRole("dialog", { name: "Result" }).getByRole("option");
  await expect(options.first()).toBeVisible();
  const index = (await options.allTextContents()).findIndex((label) => label.startsWith(winner));
  for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
  await expect(options.nth(index)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
}

let reported: Offer & { result: string; bet: string };
let corrected: Offer & { result: string; bet: string };

test.beforeAll(async () => {
  const [first, second] = await oddsMarkets();
  const bets = [await back(first!, 100), await back(second!, 100)];
  const results = new Map([...(await finish(first!.eventId)), ...(await finish(second!.eventId))].map(({ marketId, result }) => [marketId, result]));
  reported = { ...first!, result: results.get(first!.marketId)!, bet: bets[0]! };
  corrected = { ...second!, result: results.get(second!.marketId)!, bet: bets[1]! };
});

test("a market the feed closed appears with its result; Enter then y settles its bets as reported", SPEC_API, async ({ page }) => {
  const items = await pendingOf(reported.marketId);
  const pendingBefore = { items, total: items.length };
  expect(pendingBefore.items.length).toBeGreaterThan(1);

  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("S");
  await expect(page).toHaveTitle("Settlement - Admin");
  const row = page.locator("[data-table-row]").filter({ hasText: `${reported.event}Match Odds` });
  // Without /market-results (a spec-only API) the market comes from the pending queue with no result: Enter asks it.
  if (!onSpecApi()) await expect(row).toContainText(reported.result);
  await expect(row).toContainText(String(pendingBefore.total));

  await cursorTo(page, `${reported.event}Match Odds`);
  await page.keyboard.press("Enter");
  if (onSpecApi()) await answerResult(page, reported.result);
  const preview = page.getByRole("region", { name: "Row panel" });
  await expect(preview).toContainText(`${reported.result} won`);
  await expect(preview.getByRole("table", { name: "Bets to settle" }).locator("tbody tr")).toHaveCount(pendingBefore.total);
  await page.keyboard.press("y");
  const dialog = page.getByRole("dialog", { name: "Settle market" });
  await expect(dialog).toContainText(`${pendingBefore.total} done · 0 failed · 0 remaining`, { timeout: 30_000 });
  await page.keyboard.press("Escape");
  await expect(page.locator("[data-table-row]").filter({ hasText: `${reported.event}Match Odds` })).toHaveCount(0);

  // Every bet of the market was settled by the feed's winner: backs on it won, lays on it lost, the reverse on the others.
  const userBets = new Map<string, SportsBet>();
  for (const bet of pendingBefore.items) {
    for (const settled of await historyOf(bet.userId)) userBets.set(settled._id, settled);
  }
  for (const bet of pendingBefore.items) {
    const backWins = bet.runner === reported.result;
    expect(userBets.get(bet._id)?.status, bet._id).toBe(backWins === Boolean(bet.isBack) ? "SUCCESS" : "FAIL");
  }
  const mine = userBets.get(reported.bet)!;
  expect(mine.profit - mine.loss).toBe(mine.runner === reported.result ? Math.floor(100 * (reported.price - 1) * 100) / 100 : -100);
});

test("c settles a market by another runner than the feed reported", async ({ page }) => {
  const items = await pendingOf(corrected.marketId);
  const pendingBefore = { items, total: items.length };
  const other = [...new Set(pendingBefore.items.map((bet) => bet.runner))].sort().find((runner) => runner !== corrected.result)!;

  await startSession(page, DEMO.admin);
  await page.goto("/settlement");
  await cursorTo(page, `${corrected.event}Match Odds`);
  await page.keyboard.press("c");
  await expect(page.getByRole("dialog", { name: "Result" })).toContainText(`The feed reported: ${corrected.result}`);
  await answerResult(page, other);
  const preview = page.getByRole("region", { name: "Row panel" });
  await expect(preview).toContainText(`${other} won (corrected; the feed reported ${corrected.result} won`);
  await page.keyboard.press("y");
  await expect(page.getByRole("dialog", { name: "Settle market" })).toContainText(`${pendingBefore.total} done · 0 failed`, { timeout: 30_000 });
  await page.keyboard.press("Escape");

  const bet = pendingBefore.items.find((each) => each._id === corrected.bet)!;
  expect((await historyOf(bet.userId)).find((each) => each._id === corrected.bet)?.status).toBe(bet.runner === other ? "SUCCESS" : "FAIL");
});

test("Void late bets… voids exactly the bets placed inside the window; the others stay pending", async ({ page }) => {
  const markets = await oddsMarkets();
  const open = markets.find((market) => market.eventId !== reported.eventId && market.eventId !== corrected.eventId)!;
  const early = await back(open, 100);
  // The window starts at the next whole second (the operator types times to the second).
  const start = Math.ceil((Date.now() + 1) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, start - Date.now() + 20));
  const late = [await back(open, 110), await back(open, 120)];
  const from = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Kolkata", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(start);

  await startSession(page, DEMO.admin);
  await page.goto(`/pending-sport-bets?${new URLSearchParams({ eventId: open.eventId, marketId: open.marketId })}`);
  await expect(page).toHaveTitle("Pending Sport Bets - Admin");
  await page.locator("[data-table-row]").first().waitFor();
  await page.keyboard.press("l");
  const dialog = page.getByRole("dialog", { name: "Void late bets" });
  await expect(dialog.getByRole("option", { name: "Now" })).toBeVisible();
  await page.keyboard.press("Enter");
  await dialog.getByLabel("Window start").focus();
  await page.keyboard.type(from);
  await page.keyboard.press("Enter");
  const listed = dialog.getByRole("table", { name: "Bets to void" }).locator("tbody tr");
  await expect(listed).toHaveCount(2);
  await expect(dialog).toContainText("stake 230.00");
  for (const id of late) await expect(listed.filter({ hasText: id })).toHaveCount(1);
  await page.keyboard.press("y");
  await expect(page.getByRole("dialog", { name: "Void late bets" })).toContainText("2 done · 0 failed · 0 remaining", { timeout: 30_000 });
  await page.keyboard.press("Escape");

  expect(await statusOf(early, open.marketId)).toBe("PENDING");
  for (const id of late) expect(await statusOf(id, open.marketId)).toBe("SETTLED");
});
