/**
 * Issue 18: a desk clearing an evening from the settlement workspace. 50 markets the feed closed,
 * 20 pending bets each, settled as reported from `/settlement` with `*` then `y`: the wall time
 * from `*` until the job shows nothing remaining, and the keys pressed. The platform runs in its
 * test mode so that the feed simulator's interface can close markets (POST /api/test/feed/finish,
 * as tests/e2e/settlement-workspace.spec.ts drives it), on a database seeded without bets, so the
 * workspace holds exactly the markets prepared here.
 */
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { open, seal } from "../protocol/envelope";
import { SPORTS, type MarketBets, type Page, type SportsBet, type SportsEvent } from "../protocol/wire";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { benchDataDir, endUserCall, record, signInConsole, startStack, type Stack } from "./lib";
import { adminGet, adminToken } from "./settle-market.bench";

const SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";
const MARKETS = 50;
const BETS_PER_MARKET = 20;
/** Its own ports, apart from the shared stack's (BENCH_PLATFORM_PORT and BENCH_CONSOLE_PORT move them). */
const PORTS = [Number(process.env.BENCH_PLATFORM_PORT ?? 4450), Number(process.env.BENCH_CONSOLE_PORT ?? 3450)] as const;

type Offer = { eventId: string; marketId: string; runner: string; price: number };

async function sportsGet<T>(stack: Stack, token: string, path: string): Promise<T> {
  const response = await fetch(`${stack.platformUrl}/api/sports${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const answer = (await response.json()) as { status: string; msg: string; data: string };
  if (answer.status !== "SUCCESS") throw new Error(`${path}: ${answer.msg}`);
  return open(answer.data, SECRET) as T;
}

/** Every open match-odds and bookmaker market of the feed with a back price on offer, by event. */
async function openMarkets(stack: Stack, token: string): Promise<Map<string, Offer[]>> {
  const byEvent = new Map<string, Offer[]>();
  for (const sport of SPORTS) {
    for (const event of await sportsGet<SportsEvent[]>(stack, token, `/matches/${sport}`)) {
      const book = await sportsGet<MarketBets>(stack, token, `/market-bets?eventId=${encodeURIComponent(event.eventId)}&sport=${sport}`);
      const offers: Offer[] = [];
      // Match odds quote a price and size, bookmakers a plain price.
      const quoted = [
        ...book.odds.map((market) => ({ market, prices: market.runners.map((runner) => runner.back.price) })),
        ...book.bookmakers.map((market) => ({ market, prices: market.runners.map((runner) => runner.back) })),
      ];
      for (const { market, prices } of quoted) {
        const index = prices.findIndex((price) => price !== null);
        if (index !== -1) offers.push({ eventId: event.eventId, marketId: market.marketId, runner: market.runners[index]!.name, price: prices[index]! });
      }
      if (offers.length > 0) byEvent.set(event.eventId, offers);
    }
  }
  return byEvent;
}

/** `count` back bets on the market from the seeded users; a user refused (a flag off, Bet off, no balance) is passed over. */
async function placeOn(stack: Stack, offer: Offer, count: number, users: { next: number }) {
  for (let placed = 0; placed < count; users.next++) {
    if (users.next > 200) throw new Error(`only ${placed} bets could be placed on ${offer.marketId}`);
    const username = `user${String(users.next).padStart(4, "0")}`;
    try {
      const { token } = (await endUserCall(stack, "/login", { username, password: "user123" })) as { token: string };
      for (; placed < count; placed++) await endUserCall(stack, "/bet", { ...offer, isBack: 1, amount: 10 + (placed % 5) }, token);
      // This user placed the rest; the next market starts with them again.
      users.next--;
    } catch {
      // This user may not bet here, or ran out of balance; the next one does.
    }
  }
}

/** Plays the event to its end through the feed simulator: its markets close with their results. */
async function finish(stack: Stack, eventId: string): Promise<void> {
  const response = await fetch(`${stack.platformUrl}/api/test/feed/finish/${encodeURIComponent(eventId)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ payload: seal({}, SECRET) }),
  });
  if (response.status !== 200) throw new Error(`the feed could not finish ${eventId}: ${response.status}`);
}

/** 50 closed markets of 20 pending bets each: bets on the open markets, their events finished, until there are enough. */
async function prepare(stack: Stack, token: string): Promise<string[]> {
  const chosen: string[] = [];
  const users = { next: 1 };
  while (chosen.length < MARKETS) {
    const byEvent = await openMarkets(stack, token);
    if (byEvent.size === 0) throw new Error("the feed has no open market with a price on offer");
    for (const [eventId, offers] of byEvent) {
      if (chosen.length >= MARKETS) break;
      for (const offer of offers.slice(0, MARKETS - chosen.length)) {
        await placeOn(stack, offer, BETS_PER_MARKET, users);
        chosen.push(offer.marketId);
      }
      await finish(stack, eventId);
    }
  }
  return chosen;
}

export async function benchSettlementWorkspace(): Promise<void> {
  const stack = await startStack(...PORTS, { dataDir: benchDataDir({ users: 200, bets: 0 }), feedTestInterface: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const token = await adminToken(stack);
    const markets = await prepare(stack, token);
    const queue = (await adminGet(stack, token, "/sports-pending-bets?pageSize=1")) as Page<SportsBet>;
    if (queue.total !== MARKETS * BETS_PER_MARKET) throw new Error(`${queue.total} bets pending, not ${MARKETS * BETS_PER_MARKET}`);

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInConsole(page, stack.consoleUrl);
    await page.goto(`${stack.consoleUrl}/settlement`);
    await page.getByText(`${MARKETS} markets awaiting settlement`).waitFor({ timeout: 120_000 }).catch(async (error: unknown) => {
      console.error(await page.locator("main").innerText());
      throw error;
    });

    const keys = ["*", "y", "y"];
    const started = performance.now();
    await page.keyboard.press(keys[0]!);
    await page.keyboard.press(keys[1]!);
    // The job asks once for the whole selection; the second `y` answers it.
    const run = page.getByRole("dialog", { name: /^Settle/ });
    await run.getByText(/\?/).first().waitFor();
    await page.keyboard.press(keys[2]!);
    await run.getByText(/· 0 remaining/).waitFor({ timeout: 0 });
    const seconds = (performance.now() - started) / 1000;
    const counts = await run.locator(".bulk-counts").textContent();

    const left = ((await adminGet(stack, token, "/sports-pending-bets?pageSize=1")) as Page<SportsBet>).total;
    if (left !== 0 || !counts?.includes(`${MARKETS * BETS_PER_MARKET} done · 0 failed`)) {
      throw new Error(`${left} bets still pending after the job (progress: ${counts})`);
    }
    const bets = MARKETS * BETS_PER_MARKET;
    record(
      "Settlement workspace: 50 closed markets of 20 bets, settled as reported with `*` then `y`",
      [
        "| markets | bets | keys | keys per market | wall time | bets per second |",
        "|---|---|---|---|---|---|",
        `| ${markets.length} | ${bets} | ${keys.length} (\`*\` \`y\` \`y\`) | ${(keys.length / markets.length).toFixed(2)} | ${seconds.toFixed(2)} s | ${(bets / seconds).toFixed(0)} |`,
        "",
        "In a browser against the built console and the platform on a fresh PGlite seeded without bets (200 users), in",
        "its test mode: 20 back bets placed through the end-user API on each of 50 match-odds and bookmaker markets, their",
        "events played to their end through the feed simulator's interface, so that `/settlement` lists exactly these 50",
        "markets, each with the feed's result. Timed from `*` (select every market), `y` (settle the selection as",
        "reported; the workspace reads each market's set and checks it) and `y` (the one confirmation) until the progress",
        "shows 0 remaining; then every bet is checked settled on the platform. The job is one stored settlement job, in",
        "chunks of 200 bets, each chunk one console request per market, 4 markets at once, each market's bets in one",
        "`/settle-bets` call (20 bets; an API without it gets one `/settel-bet` per bet, 24 at a time). Until 2026-11-24",
        "the markets of a chunk went one after another and each bet on its own `/settel-bet`: 6.93 s, 144 bets/s.",
        `Load average when measured: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      ].join("\n"),
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}
