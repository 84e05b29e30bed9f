/**
 * Two of everything behind one address (issue 20, docs/operations.md "Two of everything behind one
 * address"), keyboard only, against scripts/cluster.sh: two platforms on one PostgreSQL sharing
 * socket.io events through Redis, two consoles on one store, HAProxy in front of each pair.
 * - A deposit request made on either platform, through its own port, is announced live on a
 *   console page behind the balancer: the relay's socket sits on one of the two platforms, so one
 *   of the two requests crosses from one platform to the other through the Redis adapter.
 * - An approval made through console A is visible through console B; a decision held for
 *   four-eyes on A is pushed to the approver signed in on B (the count read from the shared store).
 * - A settlement job run on console A and resumed on console B at the same time settles each bet
 *   once (checked in the platform's database).
 * - A session ended on console A is refused on console B at its next request.
 * - Console A killed mid-session: the operator, behind the balancer, stays signed in on B and
 *   nothing is lost (the decision made after the kill moves the money once and is in the trail).
 */
import type { Browser, Page } from "@playwright/test";
import pg from "pg";
import { allPendingBets, betsOnOneMarket, collectErrors, DEMO, endUser, expect, openSettleMarket, pickSettleMarketJob, setFourEyesThresholds, signIn, test } from "../e2e/fixtures";
import { CLUSTER, pidOf } from "./cluster";

test.describe.configure({ mode: "serial" });

const PASSWORD = "user123";
const player = (name: string, base: string = CLUSTER.platforms) => endUser(name, PASSWORD, "betdesk-cluster", base);

/** A page of its own (its own cookies) whose relative addresses go to `base`; its errors fail the test as the main page's do. */
async function pageAt(browser: Browser, base: string, errors: string[]): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  collectErrors(page, errors);
  return page;
}

async function openDeposits(page: Page) {
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page).toHaveTitle("Deposits - Admin");
  await expect(page.getByLabel("Realtime connection")).toHaveText("● live");
}

/** Approves the deposit whose row names `utr`, with a bonus of 100, by keyboard; `answer` is the toast expected. */
async function approve(page: Page, utr: string, answer = "Deposits updated successfully") {
  const rows = page.locator("[data-table-row]");
  await expect(rows.filter({ hasText: utr })).toHaveCount(1);
  await page.keyboard.press("Home");
  const index = (await rows.allTextContents()).findIndex((text) => text.includes(utr));
  for (let step = 0; step < index; step++) await page.keyboard.press("j");
  await expect(page.locator("[data-cursor]")).toContainText(utr);
  await page.keyboard.press("a");
  await expect(page.getByRole("dialog", { name: "Are you sure you want to success this deposit?" })).toBeVisible();
  await page.keyboard.type("100");
  await page.keyboard.press("y");
  await expect(page.getByText(answer)).toBeVisible();
}

/** How many deposit decisions the audit trail holds (its CSV, one entry a line, with the page's session). */
const decisions = async (page: Page) =>
  (await (await page.request.get("/resources/audit/download?call=updateDeposit")).text()).split("\n").filter((line) => line.includes("updateDeposit")).length;

const utrOf = (tag: string) => `UTR${tag}${Date.now()}`;

test("a deposit request made on either platform is announced live on a console behind the balancer", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await openDeposits(page);
  for (const [name, platform] of [["user0002", CLUSTER.platformA], ["user0004", CLUSTER.platformB]] as const) {
    const utr = utrOf(name);
    await (await player(name, platform)).deposit({ amount: 1000, type: 0, utr });
    // Within 2 seconds and without a reload (the list's refresh timer is 10 s): pushed.
    await expect(page.getByRole("row", { name: new RegExp(utr) })).toBeVisible({ timeout: 2_000 });
  }
});

test("a deposit approved through console A is shown approved through console B", async ({ browser, consoleErrors }) => {
  const onA = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  const onB = await pageAt(browser, CLUSTER.consoleB, consoleErrors);
  await signIn(onA, DEMO.admin);
  await signIn(onB, DEMO.staff);
  await openDeposits(onA);
  await openDeposits(onB);

  const utr = utrOf("ab");
  await (await player("user0006")).deposit({ amount: 700, type: 0, utr });
  await expect(onB.getByRole("row", { name: new RegExp(utr) })).toBeVisible();
  await approve(onA, utr);

  // Console B's approved tab has it, and its pending tab no longer does.
  await onB.keyboard.press("2");
  await expect(onB.getByRole("row", { name: new RegExp(utr) })).toBeVisible();
  await onB.keyboard.press("1");
  await expect(onB.getByRole("row", { name: new RegExp(utr) })).toHaveCount(0);
});

test("a decision held for four-eyes on console A is pushed to the approver on console B, who performs it", async ({ browser, consoleErrors }) => {
  const onA = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  const onB = await pageAt(browser, CLUSTER.consoleB, consoleErrors);
  await signIn(onB, DEMO.admin);
  await setFourEyesThresholds(onB, { "Approving a deposit or withdrawal above (empty: off)": "5000" });
  await expect(onB.getByLabel("Pending approvals")).toHaveCount(0);

  await signIn(onA, DEMO.staff);
  await openDeposits(onA);
  const utr = utrOf("4e");
  await (await player("user0010")).deposit({ amount: 6000, type: 0, utr });
  await approve(onA, utr, "Sent for approval (four-eyes): above 5000");

  // Console B learns it from the shared store and pushes it: its open /approvals shows the row without a reload.
  const held = onB.getByRole("grid", { name: "Approvals" }).getByRole("row").filter({ hasText: DEMO.staff.username });
  await expect(held).toContainText("may approve");
  await expect(onB.getByLabel("Pending approvals")).toContainText("4e 1");
  // Out of the thresholds form, onto the row.
  await held.click();
  await onB.keyboard.press("a");
  // One confirmation naming what will be performed, then it is.
  await onB.keyboard.press("y");
  await expect(onB.getByText(/Approved and performed/)).toBeVisible();
  await expect(held).toHaveCount(0);
});

test("a settlement job run on console A and resumed on console B at once settles each bet once", async ({ browser, consoleErrors }) => {
  test.setTimeout(180_000);
  const BETS = 120;
  const { offer, placed } = await betsOnOneMarket(BETS, CLUSTER.platforms);

  const onA = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  const onB = await pageAt(browser, CLUSTER.consoleB, consoleErrors);
  await signIn(onA, DEMO.admin);
  await signIn(onB, DEMO.admin);

  const runOnA = await openSettleMarket(onA, offer);

  // Console A's chunks after its first wait until console B runs the same job: both then send at once.
  let releaseA!: () => void;
  const bRuns = new Promise<void>((resolve) => (releaseA = resolve));
  let chunksOfA = 0;
  await onA.route("**/resources/bets/settle", async (route) => {
    if (++chunksOfA > 1) await bRuns;
    await route.continue();
  });
  const firstChunk = onA.waitForResponse((response) => response.url().endsWith("/resources/bets/settle"));
  await onA.keyboard.press("y");
  await firstChunk;

  await pickSettleMarketJob(onB);
  const chunkOfB = onB.waitForRequest((request) => request.url().endsWith("/resources/bets/settle"));
  await onB.keyboard.press("r");
  await chunkOfB;
  releaseA();

  await expect(onB.getByRole("dialog", { name: "Settle market" })).toContainText("· 0 remaining");
  await expect(runOnA).toContainText("· 0 remaining");
  expect(chunksOfA).toBeGreaterThan(1);

  // On the platform: none of the market's bets is pending, each has one result and one settling transfer.
  expect((await allPendingBets(CLUSTER.platforms)).filter((pending) => placed.includes(pending._id))).toEqual([]);
  const db = new pg.Client({ connectionString: CLUSTER.databaseUrl });
  await db.connect();
  try {
    const results = await db.query<{ bet: string; n: number }>(
      "select bet_id::text as bet, count(*)::int as n from bet_results where bet_kind = 'sports' and bet_id = any($1::bigint[]) group by bet_id",
      [placed],
    );
    expect(results.rows.length).toBe(placed.length);
    expect(results.rows.filter((result) => result.n !== 1)).toEqual([]);
    const transfers = await db.query<{ remark: string; n: number }>(
      "select remark, count(*)::int as n from ledger_transfers where kind = 'bet-settle' and remark = any($1::text[]) group by remark",
      [placed.map((id) => `bet ${id}`)],
    );
    expect(transfers.rows.length).toBe(placed.length);
    expect(transfers.rows.filter((transfer) => transfer.n !== 1)).toEqual([]);
  } finally {
    await db.end();
  }
});

test("a session ended on console A is refused on console B at its next request", async ({ browser, consoleErrors }) => {
  // Signed in through A; the same cookie opens B (one store).
  const ended = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  await signIn(ended, DEMO.staff);
  await ended.goto(`${CLUSTER.consoleB}/`);
  await expect(ended.getByRole("heading", { name: `Signed in as ${DEMO.staff.username}` })).toBeVisible();

  // Another browser on A ends every other session of the operator's.
  const ender = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  await signIn(ender, DEMO.staff);
  await ender.keyboard.press("g");
  await ender.keyboard.press("s");
  await expect(ender).toHaveTitle("Sessions - Admin");
  await ender.keyboard.press("Shift+E");
  await expect(ender.getByRole("dialog", { name: "End all your other sessions?" })).toBeVisible();
  await ender.keyboard.press("y");
  await expect(ender.getByText(/^Ended \d+ other sessions?$/)).toBeVisible();

  // B reads the ended record at the next request: no cache to expire.
  await ended.keyboard.press("g");
  await ended.keyboard.press("c");
  await expect(ended).toHaveURL(new RegExp(`^${CLUSTER.consoleB}/login`));
});

test("console A killed mid-session: the operator stays signed in through the balancer and nothing is lost", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await openDeposits(page);
  const depositor = await player("user0008");
  const before = await depositor.me();
  const utr = utrOf("kill");
  await depositor.deposit({ amount: 900, type: 0, utr });
  await expect(page.getByRole("row", { name: new RegExp(utr) })).toBeVisible();

  const decisionsBefore = await decisions(page);
  process.kill(pidOf("console-a"), "SIGKILL");

  // The next screen and the decision are served by console B, with the same session cookie.
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  await expect(page).toHaveTitle("Users - Admin");
  await openDeposits(page);
  await approve(page, utr);
  await expect.poll(async () => (await depositor.me()).balance).toBeCloseTo(before.balance + 1000, 2);

  // The realtime relay is back (on B): a new request is announced.
  const next = utrOf("after");
  await depositor.deposit({ amount: 300, type: 0, utr: next });
  await expect(page.getByRole("row", { name: new RegExp(next) })).toBeVisible({ timeout: 2_000 });

  // The decision is in the shared trail, once.
  expect(await decisions(page)).toBe(decisionsBefore + 1);
});
