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
 * - Prometheus's query API sums the settled-bets counter over both platforms to what they settled.
 * - Console A and platform A get SIGTERM and start again while operators and players work through
 *   the balancers: no request fails (readiness drains them), and a settlement job running across
 *   the restarts settles each bet once.
 * - Console A killed mid-session: the operator, behind the balancer, stays signed in on B and
 *   nothing is lost (the decision made after the kill moves the money once and is in the trail).
 */
import type { Browser, Page } from "@playwright/test";
import pg from "pg";
import { allPendingBets, betsOnOneMarket, collectErrors, DEMO, endUser, expect, openSettleMarket, pickSettleMarketJob, setFourEyesThresholds, signedInHeading, signIn, test } from "../e2e/fixtures";
import { CLUSTER, pidOf, prometheusValue, restartInstance } from "./cluster";

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

/** Runs `work` with a client of the platforms' database. */
async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: CLUSTER.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** How many sports bets the platform has settled, by its own rows. */
const sportsResults = () => withDatabase(async (db) => (await db.query<{ n: number }>("select count(*)::int as n from bet_results where bet_kind = 'sports'")).rows[0]!.n);

/** The settled-bets counter summed over the platforms, as Prometheus scraped it. */
const SETTLED_SUM = 'sum(betdesk_bets_settled_total{program="platform"})';

/** On the platform: none of `placed` is pending, each has one result and one settling transfer. */
async function expectEachSettledOnce(placed: readonly string[]) {
  expect((await allPendingBets(CLUSTER.platforms)).filter((pending) => placed.includes(pending._id))).toEqual([]);
  await withDatabase(async (db) => {
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
  });
}

/**
 * Requests one after another through both balancers until `stop`: an operator's account search
 * through the consoles (each calls the API), and a player's own balance through the platforms.
 * Answers what failed (a status other than 200, or no answer), and how many were sent.
 */
function steadyLoad(page: Page, depositor: Awaited<ReturnType<typeof player>>) {
  let running = true;
  const failures: string[] = [];
  let sent = 0;
  const loop = async (name: string, request: () => Promise<number>) => {
    while (running) {
      sent++;
      await request().then(
        (status) => void (status !== 200 && failures.push(`${name}: ${status}`)),
        (error: unknown) => void failures.push(`${name}: ${String(error)}`),
      );
    }
  };
  const loops = Promise.all([
    loop("console", async () => (await page.request.get("/resources/accounts/search?q=user00", { maxRedirects: 0 })).status()),
    loop("platform", async () => (await depositor.me(), 200)),
  ]);
  return {
    stop: async () => {
      running = false;
      await loops;
      return { failures, sent };
    },
  };
}

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
  await signIn(onA, DEMO.admin, CLUSTER.consoleA);
  await signIn(onB, DEMO.staff, CLUSTER.consoleB);
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
  await signIn(onB, DEMO.admin, CLUSTER.consoleB);
  await setFourEyesThresholds(onB, { "Approving a deposit or withdrawal above (empty: off)": "5000" });
  await expect(onB.getByLabel("Pending approvals")).toHaveCount(0);

  await signIn(onA, DEMO.staff, CLUSTER.consoleA);
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

test("a settlement job run on console A and resumed on console B at once settles each bet once, and Prometheus sums the settled counter to it", async ({ browser, consoleErrors }) => {
  test.setTimeout(180_000);
  // Five chunks: the first two go with the job, the browser sends the other three.
  const BETS = 200;
  const { offer, placed } = await betsOnOneMarket(BETS, CLUSTER.platforms);
  const [counterBefore, resultsBefore] = [await prometheusValue(SETTLED_SUM), await sportsResults()];

  const onA = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  const onB = await pageAt(browser, CLUSTER.consoleB, consoleErrors);
  await signIn(onA, DEMO.admin, CLUSTER.consoleA);
  await signIn(onB, DEMO.admin, CLUSTER.consoleB);

  const runOnA = await openSettleMarket(onA, offer);

  // Console A's chunks after its first (the job's third) wait until console B runs the same job: both then send at once.
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

  await expectEachSettledOnce(placed);
  // Prometheus, summing the counter over both platforms, saw exactly the bets the platform settled.
  const settled = await sportsResults();
  await expect.poll(async () => (await prometheusValue(SETTLED_SUM)) - counterBefore, { timeout: 20_000 }).toBe(settled - resultsBefore);
  expect(settled - resultsBefore).toBeGreaterThanOrEqual(placed.length);
});

test("a session ended on console A is refused on console B at its next request", async ({ browser, consoleErrors }) => {
  // Signed in through A; the same cookie opens B (one store).
  const ended = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  await signIn(ended, DEMO.staff, CLUSTER.consoleA);
  await ended.goto(`${CLUSTER.consoleB}/`);
  await expect(signedInHeading(ended, DEMO.staff.username)).toBeVisible();

  // Another browser on A ends every other session of the operator's.
  const ender = await pageAt(browser, CLUSTER.consoleA, consoleErrors);
  await signIn(ender, DEMO.staff, CLUSTER.consoleA);
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

test("one console and one platform restarted under load: no request fails, and a settlement job across the restarts settles each bet once", async ({ page }) => {
  test.setTimeout(240_000);
  const { offer, placed } = await betsOnOneMarket(200, CLUSTER.platforms);
  await signIn(page, DEMO.admin);
  const run = await openSettleMarket(page, offer);
  const load = steadyLoad(page, await player("user0012"));

  // After the first the browser sends (the job's third: two go with the job), each chunk waits until the restarts
  // have begun, then 1.5 s more: the job spans them.
  let restartsBegun!: () => void;
  const begun = new Promise<void>((resolve) => (restartsBegun = resolve));
  let chunks = 0;
  await page.route("**/resources/bets/settle", async (route) => {
    if (++chunks > 1) {
      await begun;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    await route.continue();
  });
  const firstChunk = page.waitForResponse((response) => response.url().endsWith("/resources/bets/settle"));
  await page.keyboard.press("y");
  await firstChunk;
  const restarts = Promise.all([restartInstance("console-a"), restartInstance("platform-a")]);
  restartsBegun();
  await restarts;
  await expect(run).toContainText("· 0 remaining", { timeout: 60_000 });
  expect(chunks).toBeGreaterThan(2);

  // Readiness drained both before they closed: nothing the operators or players sent failed.
  const { failures, sent } = await load.stop();
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(20);
  await expectEachSettledOnce(placed);
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
