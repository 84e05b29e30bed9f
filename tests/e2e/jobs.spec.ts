/**
 * Jobs that survive (issue 19), keyboard only, against the real platform: a settlement job of 200
 * bets is interrupted by killing the console process mid-run (a console of the test's own, on a
 * spare port, with its own store) and starting it again; the status line counts it, `r` on /jobs
 * resumes it, every bet is settled exactly once (on the platform) and no bet was sent twice (in
 * the audit trail).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_PROJECTS, type E2eProject } from "../fixtures/e2e-ports";
import { settleMarketWon } from "./controls";
import { allPendingBets, DEMO, endUser, expect, test } from "./fixtures";

const BETS = 200;

/** A console of this test's own, on the project's console port + 100, keeping its store in `dataDir` across restarts. */
function startConsole(port: number, platformPort: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn("node", ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "test",
      CONSOLE_DATA_DIR: dataDir,
      ADMIN_API_URL: `http://127.0.0.1:${platformPort}/api/admin`,
      SPORTS_API_URL: `http://127.0.0.1:${platformPort}/api/sports`,
      SOCKET_URL: `http://127.0.0.1:${platformPort}`,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`console exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("console listening")) resolve(child);
    });
  });
}

async function kill(child: ChildProcess) {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

test("a settlement job of 200 bets, its console killed mid-run and started again, is resumed with r: each bet settled once, none sent twice", async ({ page, consoleErrors }) => {
  // 200 bets placed, a console started twice: no wall-clock limit on the scenario.
  test.setTimeout(0);
  const { platformPort, consolePort } = E2E_PROJECTS[test.info().project.name as E2eProject];
  const port = consolePort + 100;
  const base = `http://localhost:${port}`;
  const dataDir = join(await mkdtemp(join(tmpdir(), "jobs-e2e-")), "console");

  // One odds market with a back price on offer; 200 more bets on it from the seeded users who may bet. Settle market… settles them all.
  const offer = (await allPendingBets()).find((bet) => bet.type === "odds" && bet.isBack && bet.marketId)!;
  const bet = { eventId: offer.eventId, marketId: offer.marketId!, runner: offer.runner, isBack: 1 as const, price: offer.x, amount: 10 };
  const players = [];
  for (let n = 41; n <= 80 && players.length < 10; n++) {
    const player = await endUser(`user${String(n).padStart(4, "0")}`, "user123").catch(() => null);
    // A seeded user may have Login, Bet or the sport off: the first bet tells.
    if (player && (await player.bet(bet).then(() => true, () => false))) players.push(player);
  }
  for (let i = players.length; i < BETS; i++) await players[i % players.length]!.bet(bet);
  const placed = (await allPendingBets()).filter((pending) => pending.marketId === offer.marketId).map((pending) => pending._id);
  expect(placed.length).toBeGreaterThanOrEqual(BETS);

  let console_ = await startConsole(port, platformPort, dataDir);
  try {
    await page.goto(`${base}/login`);
    await page.getByLabel("Username").focus();
    await page.keyboard.type(DEMO.admin.username);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DEMO.admin.password);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: `Signed in as ${DEMO.admin.username}` })).toBeVisible();
    await page.goto(`${base}/pending-sport-bets?${new URLSearchParams({ eventId: offer.eventId, marketId: offer.marketId! })}`);
    const run = await settleMarketWon(page, offer.runner);

    // The second chunk on its way: the first is answered, the second in flight when the process dies.
    let chunks = 0;
    const secondChunk = new Promise<void>((resolve) =>
      page.on("request", (request) => {
        if (request.url().endsWith("/resources/bets/settle") && ++chunks === 2) resolve();
      }),
    );
    const before = consoleErrors.length;
    await page.keyboard.press("y");
    await secondChunk;
    await kill(console_);
    await expect(run).toContainText("· 0 remaining");
    expect(await allPendingBets().then((bets) => bets.filter((bet) => placed.includes(bet._id)).length)).toBeGreaterThan(0);

    console_ = await startConsole(port, platformPort, dataDir);
    await page.goto(`${base}/`);
    // Whatever the page reported while its server was gone is the outage's doing, not the console's
    // (failed fetches, a closed socket, Remix's runtime failing a revalidation in any of its words).
    consoleErrors.splice(before);
    // The status line names the unfinished job on every screen.
    await expect(page.getByLabel("Unfinished jobs")).toContainText("jobs 1");
    await page.keyboard.press("g");
    await page.keyboard.press("J");
    await expect(page).toHaveTitle("Jobs - Admin");
    const row = page.locator("[data-table-row]").filter({ hasText: "Settle market" });
    await expect(row).toHaveCount(1);
    await row.click();
    await page.keyboard.press("r");
    const resumed = page.getByRole("dialog", { name: "Settle market" });
    await expect(resumed).toContainText("· 0 remaining");
    await expect(resumed).toContainText("0 failed");
    await page.keyboard.press("Escape");
    await expect(page.getByText("No unfinished jobs")).toBeVisible();
    await expect(page.getByLabel("Unfinished jobs")).toHaveCount(0);

    // On the platform: none of the market's bets is pending.
    expect((await allPendingBets()).filter((bet) => placed.includes(bet._id))).toEqual([]);
    // In the audit trail: no bet was sent twice.
    const csv = await (await page.request.get(`${base}/resources/audit/download?call=settleBet`)).text();
    const sent = new Map<string, number>();
    // One entry a line; its request (before its answer, which names the bet too) holds the bet's id first.
    for (const line of csv.split("\n")) {
      const id = /""_id"":""(\d+)""/.exec(line)?.[1];
      if (id) sent.set(id, (sent.get(id) ?? 0) + 1);
    }
    expect(placed.filter((id) => (sent.get(id) ?? 0) > 1)).toEqual([]);
    expect(placed.filter((id) => sent.has(id)).length).toBeGreaterThan(BETS / 2);
  } finally {
    await kill(console_);
  }
});
