/**
 * Market analysis (issue 10) against the real platform, keyboard only: open an event from the
 * list, see the three blocks, choose a user and clear it, open Run Amount and close it with Esc;
 * and a bet placed through the end-user API repaints the runner's book without a reload. On an
 * event's screen the palette's Settle market… asks only the market, and `s` reaches the result.
 * A partner's screen repaints too, on a bet in its subtree.
 */
import { allPendingBets, betAsFirstAllowed, DEMO, endUser, expect, runCommand, signIn, SPEC_API, startSession, test } from "./fixtures";

test("an event's book, its users row and Run Amount, all by keyboard; a new bet repaints the book live", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("m");
  await expect(page).toHaveTitle("Market Analysis - Admin");
  await expect(page.getByRole("heading", { name: "cricket" })).toBeVisible();
  await expect(page.getByLabel("Realtime connection")).toHaveText("● live");

  // Once every row's figures are in, the cursor is on the worst case (tests/e2e/market-board.spec.ts); Enter opens it.
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const first = page.locator("[data-cursor]");
  const title = (await first.getByRole("link").textContent())!;
  await page.keyboard.press("Enter");
  await expect(page.getByText(title, { exact: true })).toBeVisible();
  for (const block of ["Odds", "Bookmaker", "Fancy"]) await expect(page.getByRole("region", { name: block })).toBeVisible();

  // u chooses the first user of the row (the book narrows to that user), Esc clears it.
  const users = page.getByRole("navigation", { name: "Users" });
  await page.keyboard.press("u");
  await expect(users.getByRole("button", { pressed: true })).toHaveCount(1);
  await expect(page).toHaveURL(/client=\d+/);
  await page.keyboard.press("Escape");
  await expect(users.getByRole("button", { pressed: true })).toHaveCount(0);
  await expect(page).not.toHaveURL(/client=/);

  // The last cursor stop is a fancy entry: Enter opens its Run Amount, Esc closes it.
  await page.keyboard.press("End");
  await expect(page.getByRole("region", { name: "Fancy" }).locator("[data-cursor]")).toBeVisible();
  await page.keyboard.press("Enter");
  const runAmount = page.getByRole("dialog", { name: "Run Amount" });
  await expect(runAmount).toBeVisible();
  await expect(runAmount.getByRole("row").nth(1)).toContainText(/[▲▼]/);
  await page.keyboard.press("Escape");
  await expect(runAmount).toHaveCount(0);

  // A bet on the first match odds runner, placed by an end user at the price on offer.
  const eventId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  const odds = page.getByRole("region", { name: "Odds" });
  const runnerRow = odds.getByRole("row").nth(1);
  const runner = (await runnerRow.getAttribute("data-runner"))!;
  const price = Number((await runnerRow.locator(".back").textContent())!.trim().split(" ")[0]);
  const bookCell = runnerRow.locator("td").first();
  const before = await bookCell.textContent();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  // user0008 may log in and bet on every game (the seed's flags).
  const player = await endUser("user0008", "user123");
  await player.bet({ eventId, marketId: `${eventId}-MO`, runner, isBack: 1, price, amount: 5000 });
  // Within 2 seconds (the poll is every 10 s) and without a reload.
  await expect(bookCell).not.toHaveText(before!, { timeout: 2_000 });
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test("a partner's event screen repaints its own book live when one of its users bets", async ({ page }) => {
  await signIn(page, DEMO.panel);
  await page.keyboard.press("g");
  await page.keyboard.press("m");
  await expect(page).toHaveTitle("Market Analysis - Admin");
  await expect(page.getByLabel("Realtime connection")).toHaveText("● live");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Odds" })).toBeVisible();

  const eventId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  const runnerRow = page.getByRole("region", { name: "Odds" }).getByRole("row").nth(1);
  const runner = (await runnerRow.getAttribute("data-runner"))!;
  const price = Number((await runnerRow.locator(".back").textContent())!.trim().split(" ")[0]);
  const bookCell = runnerRow.locator("td").first();
  const before = await bookCell.textContent();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  // The seed gives panel1 the odd-numbered users.
  const panelUsers = Array.from({ length: 20 }, (_, i) => `user${String(2 * i + 1).padStart(4, "0")}`);
  await betAsFirstAllowed(panelUsers, "user123", { eventId, marketId: `${eventId}-MO`, runner, isBack: 1, price, amount: 5000 });
  // Within 2 seconds (the poll is every 10 s) and without a reload.
  await expect(bookCell).not.toHaveText(before!, { timeout: 2_000 });
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test("on an event's screen Settle market… asks only its market (Backspace reaches the event), and s opens the result", SPEC_API, async ({ page }) => {
  // An event with pending bets on its match odds (the seed's).
  const bet = (await allPendingBets()).find((item) => item.type === "odds" && item.marketId === `${item.eventId}-MO`)!;

  await startSession(page, DEMO.admin);
  await page.goto(`/market-analysis/${bet.sportName}/${encodeURIComponent(bet.eventId)}`);
  await expect(page.getByRole("region", { name: "Odds" })).toBeVisible();
  await expect(page.getByLabel("Status line")).not.toContainText("--:--:--");

  await runCommand(page, "Settle market");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText("Market with pending bets 2/2");
  await expect(palette.getByRole("option").filter({ hasText: bet.market }).first()).toContainText(bet.event);
  await page.keyboard.press("Backspace");
  await expect(palette).toContainText("Event with pending bets 1/2");
  await page.keyboard.press("Escape");
  await expect(palette).toHaveCount(0);

  // The cursor starts on the first runner of the match odds: s opens its Settle market… at the result.
  await page.keyboard.press("s");
  const dialog = page.getByRole("dialog", { name: "Settle market" });
  await expect(dialog).toContainText(`Result of ${bet.event} · ${bet.market}`);
  await expect(dialog.getByRole("option", { name: `${bet.runner} won` })).toBeVisible();
});
