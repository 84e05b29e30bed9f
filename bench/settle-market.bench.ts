/**
 * Issue 9: a 1,000-bet market settled end to end through the console's Settle market… command
 * (budget 5 s on PGlite): from Enter on the winner and `y` in the browser until the progress shows
 * nothing remaining — choices, five chunks of 200 bets to the console, 12 settlements in flight upstream.
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
/** Issue 18: the console may cost at most this many times the bare calls, measured in the same run. */
const RATIO_BUDGET = 2;
const BATCH = 20;

export async function adminGet(stack: Stack, token: string, path: string): Promise<unknown> {
  const response = await fetch(`${stack.platformUrl}/api/admin${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const answer = (await response.json()) as { status: string; msg: string; data: string };
  if (answer.status !== "SUCCESS") throw new Error(answer.msg);
  return open(answer.data, SECRET);
}

export async function adminToken(stack: Stack): Promise<string> {
  const response = await fetch(`${stack.platformUrl}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ payload: seal({ username: "admin", password: "admin123" }, SECRET) }),
  });
  const answer = (await response.json()) as { data: string };
  return (open(answer.data, SECRET) as { token: string }).token;
}

/** A match-odds market of the seeded queue with a back price on offer (the feed stands still), other than `except`. */
async function marketOnOffer(stack: Stack, token: string, except?: string) {
  const page = (await adminGet(stack, token, "/sports-pending-bets?pageSize=500")) as Page<SportsBet>;
  const bet = page.items.find((item) => item.type === "odds" && item.isBack === 1 && item.marketId && item.marketId !== except);
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

/** The reference: `count` bets of another market settled by bare `/settel-bet` calls, `inFlight` at a time, as the console sends them. */
export async function bareSettlements(stack: Stack, token: string, bets: readonly SportsBet[], inFlight: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bets.length) {
      const bet = bets[next++]!;
      const response = await fetch(`${stack.platformUrl}/api/admin/settel-bet`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ payload: seal({ bet, status: 2 }, SECRET) }),
      });
      const answer = (await response.json()) as { status: string; msg: string };
      if (answer.status !== "SUCCESS") throw new Error(`bare /settel-bet: ${answer.msg}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (performance.now() - started) / 1000;
}

/** Every pending bet of a market, read page by page. */
async function pendingOfMarket(stack: Stack, token: string, filter: string): Promise<SportsBet[]> {
  const bets: SportsBet[] = [];
  for (let page = 1; ; page++) {
    const answer = (await adminGet(stack, token, `/sports-pending-bets${filter}&pageSize=500&page=${page}`)) as Page<SportsBet>;
    bets.push(...answer.items);
    if (answer.items.length === 0 || bets.length >= answer.total) return bets;
  }
}

/** The console keeps this many settlements in flight upstream (app/lib/bets.server.ts); the reference sends as many. */
export const CONSOLE_IN_FLIGHT = 12;

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

  // The reference in the same run: another market of as many bets, settled by bare calls.
  const other = await marketOnOffer(stack, token, offer.marketId);
  const otherFilter = `?eventId=${encodeURIComponent(other.eventId)}&marketId=${encodeURIComponent(other.marketId)}`;
  await fillMarket(stack, other, ((await adminGet(stack, token, `/sports-pending-bets${otherFilter}&pageSize=1`)) as Page<SportsBet>).total, MARKET_BETS);
  const bare = await pendingOfMarket(stack, token, otherFilter);
  const bareSeconds = await bareSettlements(stack, token, bare, CONSOLE_IN_FLIGHT);
  const ratio = seconds / bareSeconds;

  record(
    "Settle market… through the console (1,000-bet market, PGlite)",
    [
      "| bets settled | end to end | bets per second | budget |",
      "|---|---|---|---|",
      `| ${settled} | ${seconds.toFixed(2)} s | ${(settled / seconds).toFixed(0)} | ${BUDGET_S} s ${seconds <= BUDGET_S ? "✓" : "✗"} |`,
      "",
      `Reference in the same run: ${bare.length} bets of another market settled by bare \`/settel-bet\` calls sent`,
      `straight to the platform, ${CONSOLE_IN_FLIGHT} in flight: ${bareSeconds.toFixed(2)} s (${(bare.length / bareSeconds).toFixed(0)} bets/s).`,
      `The console costs ${ratio.toFixed(2)}× the bare calls (budget ${RATIO_BUDGET}× ${ratio <= RATIO_BUDGET ? "✓" : "✗"}).`,
      "Every settled bet also claims its job item and appends a hash-chained audit entry in the console's",
      "store (issue 19). Profiled 2026-11-23 (spans around the store calls of a chunk, 25 chunks, load 4–9):",
      "each append its own transaction and each answer its own update took the console to 47.2 s against",
      "12.3 s bare (3.83×): answers 4.7 s, claims 0.6 s, chunks' sending 37.7 s of which appends 15.8 s",
      "summed over the 12 lanes. Appends now coalesce into one statement (group commit, ADR 0009) and a",
      "chunk's answers into one: answers 0.11 s, claims 0.27 s, sending 8.6 s (appends 12.9 s summed, most",
      "of it waiting for the batch ahead); the rest of the gap, not yet attributed, is the console's upstream exchange per bet.",
      "",
      "In a browser against the built console and the platform on a fresh PGlite (demo seed plus bets",
      "placed through the end-user API to make the market 1,000 bets): from Enter on the winning runner",
      "(the market's bets loaded, every outcome derived, the preview asked) and `y`, until the progress",
      "shows 0 remaining. Five chunks of 200 bets go to the console one after another; the console settles",
      "each chunk upstream 12 at a time through `/settel-bet` alone, one call per bet. PGlite runs one",
      "transaction at a time, so the platform writes the calls that arrive while a settlement is being",
      "written together as the next transaction (group commit, `db/group-commit.ts`), each",
      "still gated by its own conditional update and answered on its own.",
      `Load average when measured: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      "",
      `Keystrokes per settled bet for a batch of ${BATCH} on the desk: ${batchKeys.length} keys`,
      `(\`x\`, Shift+↓ ×${BATCH - 1}, \`f\`, \`y\`, Esc) = ${(batchKeys.length / BATCH).toFixed(2)} per bet; with the market's`,
      `queue filtered, \`*\` \`f\` \`y\` Esc = ${(4 / BATCH).toFixed(2)} per bet.`,
    ].join("\n"),
  );
}
