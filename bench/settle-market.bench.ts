/**
 * Issue 9: a 1,000-bet market settled end to end through the console's Settle market… command
 * (budget 5 s on PGlite): from Enter on the winner and `y` in the browser until the progress shows
 * nothing remaining — choices, five chunks of 200 bets to the console, each upstream in `/settle-bets` calls of 50, 4 in flight.
 * Three rounds, each beside its reference of bare calls; medians reported. Also the keystrokes per settled bet for a batch of 20 on the desk.
 */
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { open, seal } from "../protocol/envelope";
import type { Page, SettledBet, SportsBet } from "../protocol/wire";
import { SETTLE_BULK_IN_FLIGHT, SETTLE_BULK_SIZE, SETTLE_CONCURRENCY } from "../app/lib/constants";
import { settleChunkSizeFor } from "../app/machines/settlement.machine";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { endUserCall, record, signInConsole, type Stack } from "./lib";

const SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";
const MARKET_BETS = 1_000;
const BUDGET_S = 5;
/** Issue 18: the console may cost at most this many times the bare calls, measured in the same run. */
const RATIO_BUDGET = 2;
const BATCH = 20;
const ROUNDS = 3;

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

/** A match-odds market of the seeded queue with a back price on offer (the feed stands still), none of `used`. */
async function marketOnOffer(stack: Stack, token: string, used: ReadonlySet<string>) {
  const page = (await adminGet(stack, token, "/sports-pending-bets?pageSize=500")) as Page<SportsBet>;
  const bet = page.items.find((item) => item.type === "odds" && item.isBack === 1 && item.marketId && !used.has(item.marketId));
  if (!bet) throw new Error("no match-odds back bet in the seeded queue");
  return { eventId: bet.eventId, marketId: bet.marketId!, runner: bet.runner, price: bet.x };
}

/** A fresh market of MARKET_BETS pending bets, marked used; its queue filter. */
async function freshMarket(stack: Stack, token: string, used: Set<string>) {
  const offer = await marketOnOffer(stack, token, used);
  used.add(offer.marketId);
  const filter = `?eventId=${encodeURIComponent(offer.eventId)}&marketId=${encodeURIComponent(offer.marketId)}`;
  await fillMarket(stack, offer, ((await adminGet(stack, token, `/sports-pending-bets${filter}&pageSize=1`)) as Page<SportsBet>).total, MARKET_BETS);
  return { offer, filter };
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

/**
 * The same settlements as the console sends them to an API with `/settle-bets` (app/lib/bets.server.ts):
 * the job's chunks one after another (settleChunkSizeFor), each in calls of `size` bets, `inFlight` at once.
 */
export async function bareBulkSettlements(
  stack: Stack,
  token: string,
  bets: readonly SportsBet[],
  { chunkSize = settleChunkSizeFor(bets.length), size = SETTLE_BULK_SIZE, inFlight = SETTLE_BULK_IN_FLIGHT } = {},
): Promise<number> {
  const started = performance.now();
  const sliced = (items: readonly SportsBet[], length: number) => Array.from({ length: Math.ceil(items.length / length) }, (_, i) => items.slice(i * length, (i + 1) * length));
  for (const chunk of sliced(bets, chunkSize)) {
    const calls = sliced(chunk, size);
    let next = 0;
    const lane = async () => {
      while (next < calls.length) {
        const settlements = calls[next++]!.map((bet) => ({ bet, status: 2 }));
        const response = await fetch(`${stack.platformUrl}/api/admin/settle-bets`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ payload: seal({ settlements }, SECRET) }),
        });
        const answer = (await response.json()) as { status: string; msg: string; data: string };
        if (answer.status !== "SUCCESS") throw new Error(`bare /settle-bets: ${answer.msg}`);
        const { results } = open(answer.data, SECRET) as { results: SettledBet[] };
        const failed = results.find((result) => result.code !== 200);
        if (failed || results.length !== settlements.length) throw new Error(`bare /settle-bets: ${failed?.msg ?? "results missing"}`);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
  }
  return (performance.now() - started) / 1000;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchSettleMarket(stack: Stack): Promise<void> {
  const token = await adminToken(stack);
  const used = new Set<string>();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signInConsole(page, stack.consoleUrl);

  // Keystrokes for a batch of 20 on a market's queue: x, Shift+↓ ×19, f, y, Esc.
  const batchKeys = ["x", ...Array<string>(BATCH - 1).fill("Shift+ArrowDown"), "f", "y", "Escape"];

  // Rounds of a console run and its bare reference, each on a fresh market: the median of each is
  // reported, as one run on a shared machine can be a second off either way.
  const rounds: Array<{ seconds: number; bareSeconds: number; togetherSeconds: number; load: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { offer, filter } = await freshMarket(stack, token, used);
    await page.goto(`${stack.consoleUrl}/pending-sport-bets${filter}&settle=1`);
    await page.getByRole("option", { name: new RegExp(`^${offer.runner} `) }).waitFor();
    const options = await page.getByRole("option").allTextContents();
    for (let i = 0; i < options.findIndex((text) => text.startsWith(`${offer.runner} `)); i++) await page.keyboard.press("j");
    // The machine's load when the timed run starts: the bets just placed count in it.
    const load = loadavg()[0]!;
    const started = performance.now();
    await page.keyboard.press("Enter");
    await page.getByText(/: settle \d+ bets\?/).waitFor();
    await page.keyboard.press("y");
    await page.getByText(/· 0 remaining/).waitFor({ timeout: 0 });
    const seconds = (performance.now() - started) / 1000;
    const counts = await page.locator(".bulk-counts").textContent();
    const left = ((await adminGet(stack, token, `/sports-pending-bets${filter}&pageSize=1`)) as Page<SportsBet>).total;
    if (left !== 0 || !counts?.includes(`${MARKET_BETS} done · 0 failed`)) throw new Error(`${left} bets of the market are still pending (progress: ${counts})`);

    // The references in the same run, each another market of as many bets: bare `/settel-bet` calls (issue 18's
    // reference for the ratio), and bare `/settle-bets` calls as the console now sends them.
    const bare = await freshMarket(stack, token, used);
    const bareSeconds = await bareSettlements(stack, token, await pendingOfMarket(stack, token, bare.filter), SETTLE_CONCURRENCY);
    const together = await freshMarket(stack, token, used);
    const togetherSeconds = await bareBulkSettlements(stack, token, await pendingOfMarket(stack, token, together.filter));
    rounds.push({ seconds, bareSeconds, togetherSeconds, load });
  }
  await browser.close();
  const seconds = median(rounds.map((round) => round.seconds));
  const bareSeconds = median(rounds.map((round) => round.bareSeconds));
  const ratio = median(rounds.map((round) => round.seconds / round.bareSeconds));
  const togetherSeconds = median(rounds.map((round) => round.togetherSeconds));

  record(
    "Settle market… through the console (1,000-bet market, PGlite)",
    [
      `${ROUNDS} rounds, each a ${MARKET_BETS.toLocaleString("en-US")}-bet market through the console, then two more by bare calls:`,
      "",
      "| round | console, end to end | bare `/settel-bet` calls | console ÷ bare | bare `/settle-bets` calls | load (1 min) at its start |",
      "|---|---|---|---|---|---|",
      ...rounds.map(
        (round, i) =>
          `| ${i + 1} | ${round.seconds.toFixed(2)} s | ${round.bareSeconds.toFixed(2)} s | ${(round.seconds / round.bareSeconds).toFixed(2)}× | ${round.togetherSeconds.toFixed(2)} s | ${round.load.toFixed(1)} |`,
      ),
      `| **median** | **${seconds.toFixed(2)} s** (${(MARKET_BETS / seconds).toFixed(0)} bets/s; budget ${BUDGET_S} s ${seconds <= BUDGET_S ? "✓" : "✗"}) | ${bareSeconds.toFixed(2)} s | **${ratio.toFixed(2)}×** (budget ${RATIO_BUDGET}× ${ratio <= RATIO_BUDGET ? "✓" : "✗"}) | ${togetherSeconds.toFixed(2)} s | |`,
      "",
      `The ratio's reference is issue 18's: bare \`/settel-bet\` calls straight to the platform, ${SETTLE_CONCURRENCY} in flight, as the`,
      "console sends them to an API without `/settle-bets`. Since 2026-11-24 the console sends a chunk's bets to an API with it in",
      `\`/settle-bets\` calls of ${SETTLE_BULK_SIZE}, ${SETTLE_BULK_IN_FLIGHT} in flight; the last column is those calls, bare, chunk after chunk. What the`,
      "console adds to them is its own per chunk and per job (the job stored, each chunk's claims, answers and audit entries,",
      "the browser's round trip, the choices read and the confirmation shown): half a second to a second here, whatever the API.",
      "Every settled bet also claims its job item and appends a hash-chained audit entry in the console's",
      "store (issue 19). Profiled 2026-11-23 (spans around the store calls of a chunk, 25 chunks, load 4–9):",
      "each append its own transaction and each answer its own update took the console to 47.2 s against",
      "12.3 s bare (3.83×): answers 4.7 s, claims 0.6 s, chunks' sending 37.7 s of which appends 15.8 s",
      "summed over the 12 lanes. Appends now coalesce into one statement (group commit, ADR 0009) and a",
      "chunk's answers into one: answers 0.11 s, claims 0.27 s, sending 8.6 s (appends 12.9 s summed, most",
      "of it waiting for the batch ahead).",
      "Profiled 2026-11-24 (V8 CPU profiles of both processes, and when each call reached the platform): the",
      "platform was 80–90 % busy through the console's run against 100 % through the bare calls, for three",
      "reasons. It looked up the sessions watching the book once per settlement batch, on PGlite's one",
      "connection (about 1 s of the run; now once a second, platform/realtime.ts). Each of the 9 chunk",
      "boundaries (chunks of 100) left it without a call for 60–110 ms (now five chunks of 200). And the",
      "console's fetch (undici) cost three times the CPU per call of node:http (now kept-alive node:http,",
      "app/lib/http-transport.server.ts); the session is also read once per request, and `bet-settled` is",
      "relayed to the browser at most every 250 ms. With 12 calls in flight the console then cost 1.2–1.6× the bare",
      "calls, but the platform still waited for calls at times, so it now keeps 24 (ADR 0007): rounds at 3.0–4.6 s",
      "where 12 gave 4.5–5.6 s. A console's first round is the slowest (its code not yet optimised by the JIT).",
      "",
      "In a browser against the built console and the platform on a fresh PGlite (demo seed plus bets",
      "placed through the end-user API to make the market 1,000 bets): from Enter on the winning runner",
      "(the market's bets loaded, every outcome derived, the preview asked) and `y`, until the progress",
      "shows 0 remaining. Five chunks of 200 bets go to the console one after another; the console settles",
      "each chunk upstream 24 at a time through `/settel-bet` alone, one call per bet. PGlite runs one",
      "transaction at a time, so the platform writes the calls that arrive while a settlement is being",
      "written together as the next transaction (group commit, `db/group-commit.ts`), each",
      "still gated by its own conditional update and answered on its own.",
      `Load average (1 min) at the end of the benchmark: ${loadavg()[0]!.toFixed(1)}, on ${cpus().length} cores; the rounds' own processes (bets placed, platform, console, browser) make most of it.`,
      "",
      `Keystrokes per settled bet for a batch of ${BATCH} on the desk: ${batchKeys.length} keys`,
      `(\`x\`, Shift+↓ ×${BATCH - 1}, \`f\`, \`y\`, Esc) = ${(batchKeys.length / BATCH).toFixed(2)} per bet; with the market's`,
      `queue filtered, \`*\` \`f\` \`y\` Esc = ${(4 / BATCH).toFixed(2)} per bet.`,
    ].join("\n"),
  );
}
