/**
 * Issue 9: a 1,000-bet market settled end to end through the console's Settle market… command
 * (budget 5 s on PGlite): from Enter on the winner and `y` in the browser until the progress shows
 * nothing remaining — choices, chunks of 40 bets to the console, 6 settlements in flight upstream.
 * Also the keystrokes per settled bet for a batch of 20 on the desk.
 */
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { open, seal } from "../protocol/envelope";
import type { Page, SportsBet } from "../protocol/wire";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { endUserCall, record, signInConsole, type Stack } from "./lib";

const SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";
const MARKET_BETS = 1_000;
const BUDGET_S = 5;
const BATCH = 20;

async function adminGet(stack: Stack, token: string, path: string): Promise<unknown> {
  const response = await fetch(`${stack.platformUrl}/api/admin${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const answer = (await response.json()) as { status: string; msg: string; data: string };
  if (answer.status !== "SUCCESS") throw new Error(answer.msg);
  return open(answer.data, SECRET);
}

async function adminToken(stack: Stack): Promise<string> {
  const response = await fetch(`${stack.platformUrl}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ payload: seal({ username: "admin", password: "admin123" }, SECRET) }),
  });
  const answer = (await response.json()) as { data: string };
  return (open(answer.data, SECRET) as { token: string }).token;
}

/** A match-odds market of the seeded queue with a back price on offer (the feed stands still). */
async function marketOnOffer(stack: Stack, token: string) {
  const page = (await adminGet(stack, token, "/sports-pending-bets?pageSize=500")) as Page<SportsBet>;
  const bet = page.items.find((item) => item.type === "odds" && item.isBack === 1 && item.marketId);
  if (!bet) throw new Error("no match-odds back bet in the seeded queue");
  return { eventId: bet.eventId, marketId: bet.marketId!, runner: bet.runner, price: bet.x };
}

/** Fills the market to `count` bets from seeded users; a user refused (a flag off, Bet off, no balance) is passed over. */
async function fillMarket(stack: Stack, offer: Awaited<ReturnType<typeof marketOnOffer>>, from: number, count: number) {
  let placed = from;
  for (let user = 1; placed < count; user++) {
    if (user > 200) throw new Error(`only ${placed} bets could be placed`);
    const username = `user${String(user).padStart(4, "0")}`;
    try {
      const { token } = (await endUserCall(stack, "/login", { username, password: "user123" })) as { token: string };
      for (let bets = 0; bets < 50 && placed < count; bets++, placed++) {
        await endUserCall(stack, "/bet", { ...offer, isBack: 1, amount: 10 + (placed % 5) }, token);
      }
    } catch {
      // This user may not bet here; the next one does.
    }
  }
}

export async function benchSettleMarket(stack: Stack): Promise<void> {
  const token = await adminToken(stack);
  const offer = await marketOnOffer(stack, token);
  const filter = `?eventId=${encodeURIComponent(offer.eventId)}&marketId=${encodeURIComponent(offer.marketId)}`;
  const already = ((await adminGet(stack, token, `/sports-pending-bets${filter}&pageSize=1`)) as Page<SportsBet>).total;
  await fillMarket(stack, offer, already, MARKET_BETS);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signInConsole(page, stack.consoleUrl);

  // Keystrokes for a batch of 20 on a market's queue: x, Shift+↓ ×19, f, y, Esc.
  const batchKeys = ["x", ...Array<string>(BATCH - 1).fill("Shift+ArrowDown"), "f", "y", "Escape"];

  await page.goto(`${stack.consoleUrl}/pending-sport-bets${filter}&settle=1`);
  await page.getByRole("option", { name: new RegExp(`^${offer.runner} `) }).waitFor();
  const options = await page.getByRole("option").allTextContents();
  for (let i = 0; i < options.findIndex((text) => text.startsWith(`${offer.runner} `)); i++) await page.keyboard.press("j");
  const started = performance.now();
  await page.keyboard.press("Enter");
  await page.getByText(/: settle \d+ bets\?/).waitFor();
  await page.keyboard.press("y");
  await page.getByText(/· 0 remaining/).waitFor({ timeout: 0 });
  const seconds = (performance.now() - started) / 1000;
  const counts = await page.locator(".bulk-counts").textContent();
  await browser.close();
  const left = ((await adminGet(stack, token, `/sports-pending-bets${filter}&pageSize=1`)) as Page<SportsBet>).total;
  if (left !== 0) throw new Error(`${left} bets of the market are still pending (progress: ${counts})`);
  const settled = Number(/(\d+) done/.exec(counts ?? "")?.[1] ?? 0);

  record(
    "Settle market… through the console (1,000-bet market, PGlite)",
    [
      "| bets settled | end to end | bets per second | budget |",
      "|---|---|---|---|",
      `| ${settled} | ${seconds.toFixed(2)} s | ${(settled / seconds).toFixed(0)} | ${BUDGET_S} s ${seconds <= BUDGET_S ? "✓" : "✗"} |`,
      "",
      "In a browser against the built console and the platform on a fresh PGlite (demo seed plus bets",
      "placed through the end-user API to make the market 1,000 bets): from Enter on the winning runner",
      "(the market's bets loaded, every outcome derived, the preview asked) and `y`, until the progress",
      "shows 0 remaining. Chunks of 40 bets go to the console one after another; the console settles",
      "each chunk upstream 12 at a time through `/settel-bet` alone, one call per bet. PGlite runs one",
      "transaction at a time, so the platform writes the calls that arrive while a settlement is being",
      "written together as the next transaction (group commit, `platform/db/group-commit.ts`), each",
      "still gated by its own conditional update and answered on its own.",
      `Load average when measured: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      "",
      `Keystrokes per settled bet for a batch of ${BATCH} on the desk: ${batchKeys.length} keys`,
      `(\`x\`, Shift+↓ ×${BATCH - 1}, \`f\`, \`y\`, Esc) = ${(batchKeys.length / BATCH).toFixed(2)} per bet; with the market's`,
      `queue filtered, \`*\` \`f\` \`y\` Esc = ${(4 / BATCH).toFixed(2)} per bet.`,
    ].join("\n"),
  );
}
