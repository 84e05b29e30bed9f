/**
 * `npm run bench -- --pg` (issue 20): the platform on PostgreSQL at 1,000,000 users and 10,000,000
 * bets. DATABASE_URL names a database seeded with
 * `npm run db:seed -- --users 1000000 --bets 10000000 --settled-share 0.89`
 * (docs/operations.md "Seeding PostgreSQL at scale"): 1.1 million bets pending, the rest settled
 * history. The platform server starts on BENCH_PLATFORM_PORT (4420) against it and every call goes
 * over HTTP with the envelope, as the console sends it. Budgets: `/users` p95 ≤ 50 ms (substring searches included),
 * `/sports-pending-bets` ≤ 50 ms, reports ≤ 200 ms, `/market-bets` of the busiest event ≤ 50 ms,
 * and 10,000 bets of one market settled at ≥ 1,000 a second (through `/settle-bets`, as the console sends them).
 * Settling is not undone: each run settles 10,000 more of the seeded bets, and 10,000 more one `/settel-bet` each.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { sql } from "kysely";
import { open } from "../../protocol/envelope";
import type { Page, SportsBet } from "../../protocol/wire";
import { openDb, type Db } from "../../platform/db/index";
import { migrate } from "../../platform/db/migrate";
import { checkMoneyInvariants } from "../../platform/modules/ledger/invariants";
import { DEMO_ACCOUNTS, seedUsername } from "../../platform/seed";
import { MARKET_DETAIL_USERS, SETTLE_BULK_IN_FLIGHT, SETTLE_BULK_SIZE, SETTLE_CONCURRENCY } from "../../app/lib/constants";
import { settleChunkSizeFor } from "../../app/machines/settlement.machine";
import { percentile, record, startPlatform, stopChild, type Stack } from "../lib";
import { reportQueries } from "../report.bench";
import { adminToken, bareBulkSettlements, bareSettlements } from "../settle-market.bench";
import { usersQuery } from "../users-list.bench";
import { explainHotQueries } from "./explain";

const SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";
const WARM_UP = 30;
const MEASURED = 300;
const SETTLED = 10_000;
/** The busiest event's book answers in seconds (every bettor is in it): fewer calls measure it. */
const BOOK_CALLS = { warmUp: 5, measured: 60 };
const BUDGETS = { list: 50, report: 200, settlePerSecond: 1_000 } as const;

/** A GET through the envelope, opened as the console opens it; refusals thrown. */
async function call<T>(stack: Stack, token: string, path: string): Promise<T> {
  const response = await fetch(`${stack.platformUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const answer = (await response.json()) as { status: string; msg: string; data: string };
  if (answer.status !== "SUCCESS") throw new Error(`${path}: ${answer.msg}`);
  return open(answer.data, SECRET) as T;
}

/** `warmUp` then `measured` calls cycling `paths`, one after another; the measured times in ms. */
async function timed(stack: Stack, token: string, paths: (i: number) => string, { warmUp, measured } = { warmUp: WARM_UP, measured: MEASURED }): Promise<number[]> {
  const timings: number[] = [];
  for (let i = 0; i < warmUp + measured; i++) {
    const started = performance.now();
    await call(stack, token, paths(i));
    if (i >= warmUp) timings.push(performance.now() - started);
  }
  return timings;
}

const row = (what: string, timings: number[], budget: number) =>
  `| ${what} | ${percentile(timings, 50).toFixed(1)} ms | ${percentile(timings, 95).toFixed(1)} ms | ${Math.max(...timings).toFixed(1)} ms | ${budget} ms ${percentile(timings, 95) <= budget ? "✓" : "✗"} |`;

async function scaleOf(db: Db) {
  const { rows } = await sql<{ users: bigint; bets: bigint; pending: bigint; version: string }>`
    select (select count(*) from users) as users, (select count(*) from sports_bets) as bets,
           (select n from sports_pending_counts where key = 'all') as pending, version() as version`.execute(db);
  return rows[0]!;
}

/**
 * Reads every table and index of the database into memory (pg_prewarm), as a server in service holds its working set:
 * a freshly seeded database is partly on disk, and settling's random index pages then wait on reads. Without the
 * extension (not a superuser, say), nothing is read and the figures are of whatever the cache holds.
 */
async function prewarm(db: Db): Promise<string> {
  try {
    const started = performance.now();
    await sql`create extension if not exists pg_prewarm`.execute(db);
    const { rows } = await sql<{ blocks: string }>`
      select sum(pg_prewarm(c.oid::regclass, 'read')) as blocks
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind in ('r', 'i')`.execute(db);
    const gigabytes = (Number(rows[0]!.blocks) * 8192) / 2 ** 30;
    return `its tables and indexes were read into memory first (pg_prewarm, ${gigabytes.toFixed(1)} GB in ${((performance.now() - started) / 1000).toFixed(1)} s), as a server in service holds its working set`;
  } catch (error) {
    return `its files were not read into memory first (pg_prewarm: ${(error as Error).message}): the figures are of whatever the cache held`;
  }
}

/** The event with the most open bets, and one of its match-odds markets: the book and the settlement measured. */
async function busiestEvent(db: Db) {
  const event = await db.selectFrom("sports_pending_counts").select(["key", "n"]).where("key", "like", "event:%").orderBy("n", "desc").limit(1).executeTakeFirstOrThrow();
  const eventId = event.key.slice("event:".length);
  const market = await db
    .selectFrom("sports_pending_counts")
    .select(["key", "n"])
    .where("key", "=", `market:${eventId}-MO`)
    .executeTakeFirstOrThrow();
  return { eventId, open: Number(event.n), marketId: market.key.slice("market:".length), marketOpen: Number(market.n) };
}

export async function benchPostgres(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("--pg needs DATABASE_URL: a database seeded at scale (docs/operations.md)");
  const port = Number(process.env.BENCH_PLATFORM_PORT ?? 4420);
  const db = await openDb({ kind: "postgres", url });
  let stop = async () => {};
  try {
    // Migrations first, here: a new index on ten million rows takes longer than the platform's start may.
    await migrate(db);
    const scale = await scaleOf(db);
    const checking = performance.now();
    const invariants = await checkMoneyInvariants(db);
    const checkSeconds = (performance.now() - checking) / 1000;
    if (Object.values(invariants).some((n) => n !== 0)) throw new Error(`the money invariants do not hold: ${JSON.stringify(invariants)}`);
    const busiest = await busiestEvent(db);
    const warmed = await prewarm(db);
    const load = loadavg()[0]!;

    const platform = await startPlatform(port, { DATABASE_URL: url });
    stop = () => stopChild(platform.child);
    const stack: Stack = { platformUrl: platform.url, consoleUrl: "", stop };
    const token = await adminToken(stack);

    const users = await timed(stack, token, usersQuery);
    // The mix's searches alone: its requests 9, 12, … 27 (usersQuery).
    const searches = await timed(stack, token, (i) => usersQuery(3 * (3 + (i % 7))));

    const pendingQueries = ["", "&page=2", `&eventId=${busiest.eventId}`, "&sport=football", "&sport=tennis&page=5", `&eventId=${busiest.eventId}&sport=cricket`, `&marketId=${busiest.marketId}`];
    const pending = await timed(stack, token, (i) => `/api/admin/sports-pending-bets?pageSize=50${pendingQueries[i % pendingQueries.length]}`);
    const deep = await timed(stack, token, () => "/api/admin/sports-pending-bets?pageSize=50&page=1000");

    const idOf = async (path: string, username: string) => (await call<{ items: { _id: string }[] }>(stack, token, `/api/admin/${path}?username=${username}`)).items[0]!._id;
    const reports = reportQueries(await idOf("partners", DEMO_ACCOUNTS.partner.username), await idOf("users", seedUsername(7)));
    const reportTimings = await timed(stack, token, (i) => `/api/admin${reports[i % reports.length]}`);

    // As the console asks: an event's screen lists the first users and counts them all (usersLimit, an extension).
    const bookPath = `/api/sports/market-bets?eventId=${busiest.eventId}&sport=cricket&usersLimit=${MARKET_DETAIL_USERS}`;
    const book = await call<{ users: unknown[]; usersTotal: number }>(stack, token, bookPath);
    const clients = (await db.selectFrom("market_positions").select("user_id").where("event_id", "=", busiest.eventId).limit(20).execute()).map((p) => String(p.user_id));
    // Every fourth call is one client's book, as when the desk chooses a user.
    const marketBets = await timed(stack, token, (i) => `${bookPath}${i % 4 === 3 ? `&client=${clients[i % clients.length]}` : ""}`, BOOK_CALLS);

    // The market's oldest 10,000 pending bets, as Settle market… reads them, then settled by bare calls as the console
    // sends them: in /settle-bets calls (the budget), then the next 10,000 one /settel-bet each, as to an API without it.
    const oldestPending = async () => {
      const bets: SportsBet[] = [];
      for (let page = 1; bets.length < SETTLED; page++) {
        const answer = await call<Page<SportsBet>>(stack, token, `/api/admin/sports-pending-bets?marketId=${busiest.marketId}&pageSize=500&page=${page}`);
        if (answer.items.length === 0) return undefined;
        bets.push(...answer.items);
      }
      return bets.slice(0, SETTLED);
    };
    const loadBeforeSettling = loadavg()[0]!;
    const together = await oldestPending();
    if (!together) throw new Error(`the market ${busiest.marketId} holds fewer than ${SETTLED} pending bets`);
    const settleSeconds = await bareBulkSettlements(stack, token, together);
    const perSecond = SETTLED / settleSeconds;
    const eachBets = await oldestPending();
    const eachSeconds = eachBets && (await bareSettlements(stack, token, eachBets, SETTLE_CONCURRENCY));
    const loadAfter = loadavg()[0]!;

    record(
      "PostgreSQL at 1,000,000 users and 10,000,000 bets",
      `${scale.version.split(" on ")[0]} on ${cpus().length} × ${cpus()[0]!.model}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, default server settings; load average ${load.toFixed(1)} before, ${loadAfter.toFixed(1)} after.
The database (DATABASE_URL, seeded by \`npm run db:seed -- --users 1000000 --bets 10000000 --settled-share 0.89\`, see "Seeding
PostgreSQL at scale") holds ${Number(scale.users).toLocaleString("en-US")} users and ${Number(scale.bets).toLocaleString("en-US")} sports bets, ${Number(scale.pending).toLocaleString("en-US")} of them pending; before measuring,
the money invariants were checked by SQL (platform/modules/ledger/invariants.ts: every balance equals its entries, every
entry its running sum, every transfer sums to zero, the exposure account holds the pending bets' exposure, the kept counts,
positions, results and rollup match the bets), all sound, in ${checkSeconds.toFixed(0)} s; then ${warmed}.

The platform server (platform/server.ts) on its own port against that database, every call over HTTP with the envelope as
the console sends it (fetch, bearer token, answer opened), one after another: ${MEASURED} measured after ${WARM_UP} warm-up per row (the market book ${BOOK_CALLS.measured} after ${BOOK_CALLS.warmUp}).

| calls | p50 | p95 | max | budget (p95) |
|---|---|---|---|---|
${row("`/users`: pages 1–2,000 of 50, every sort both ways, searches", users, BUDGETS.list)}
${row("`/users`: substring searches only (user0, 12345, 9999, 0042, 77, user1, abc)", searches, BUDGETS.list)}
${row("`/sports-pending-bets`: first pages, event, sport, market and combined filters", pending, BUDGETS.list)}
${row("`/sports-pending-bets`: page 1,000 (offset 49,950)", deep, BUDGETS.list)}
${row("reports v1 and v2: house, partner, user over today, a week, 30 days", reportTimings, BUDGETS.report)}
${row(`\`/market-bets\` of the busiest event (${busiest.open.toLocaleString("en-US")} open bets, ${book.users.length} of ${book.usersTotal.toLocaleString("en-US")} users in its answer)`, marketBets, BUDGETS.list)}

Settle market…: the oldest ${SETTLED.toLocaleString("en-US")} of the ${busiest.marketOpen.toLocaleString("en-US")} pending bets of match odds ${busiest.marketId}, read page by page
as the console reads them, then settled (lost) by bare calls as the console sends them (not through the console: its browser
run is the PGlite benchmark above), load average ${loadBeforeSettling.toFixed(1)} at the start:

| settled as | time | bets/s | budget |
|---|---|---|---|
| \`/settle-bets\` (extension): chunks of ${settleChunkSizeFor(SETTLED)} one after another, each in calls of ${SETTLE_BULK_SIZE}, ${SETTLE_BULK_IN_FLIGHT} in flight | ${settleSeconds.toFixed(1)} s | **${perSecond.toFixed(0)}** | ${BUDGETS.settlePerSecond} ${perSecond >= BUDGETS.settlePerSecond ? "✓" : "✗"} |
| the next ${SETTLED.toLocaleString("en-US")}, one \`/settel-bet\` each, ${SETTLE_CONCURRENCY} in flight (an API without \`/settle-bets\`) | ${eachSeconds === undefined ? "not run: too few pending bets left" : `${eachSeconds.toFixed(1)} s | ${(SETTLED / eachSeconds).toFixed(0)} | (none) |`}`,
    );
    await explainHotQueries(url, { eventId: busiest.eventId, marketId: busiest.marketId, reports });
  } finally {
    await stop();
    await db.destroy();
  }
}
