/**
 * The settlement desk at volume, on a fresh temporary PGlite through app.inject as the super
 * admin (auth, envelope, validation, the conditional update, the ledger transfers and the
 * bet result): `/settel-bet` one after another with 10,000 pending, and the pending queue's
 * pages at 100,000 pending (`npm run db:seed -- --bets N`'s bulk path seeds both).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { open, seal } from "../protocol/envelope";
import type { Page, SportsBet } from "../protocol/wire";
import { buildApp } from "../platform/app";
import { openDb } from "../platform/db/index";
import { migrate } from "../platform/db/migrate";
import { DEMO_ACCOUNTS, seed, type SeedOptions } from "../platform/seed";
import { loadEnv } from "../platform/env";
import { createRevealer } from "../platform/security/reveal";
import { adminHeaders, percentile, record } from "./lib";

const WARM_UP = 50;

type Run<T> = (app: ReturnType<typeof buildApp>, headers: { authorization: string }, secret: string, seedSeconds: number) => Promise<T>;

/** A fresh temporary PGlite seeded with `options`, and the platform on it with the super admin signed in. */
export async function withSeededPlatform<T>(options: SeedOptions, run: Run<T>) {
  const dataDir = mkdtempSync(join(tmpdir(), "betdesk-book-bench-"));
  const env = loadEnv({ NODE_ENV: "test", API_SECRET: "bench-secret" });
  const db = await openDb({ kind: "pglite", dataDir: join(dataDir, "db") });
  try {
    await migrate(db);
    const started = performance.now();
    await seed(db, createRevealer(env), options);
    const seconds = (performance.now() - started) / 1000;
    await sql`vacuum analyze`.execute(db);
    const app = buildApp({ db, env, uploadsDir: join(dataDir, "uploads") });
    try {
      return await run(app, await adminHeaders(app, env.API_SECRET, DEMO_ACCOUNTS.admin), env.API_SECRET, seconds);
    } finally {
      await app.close();
    }
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The seed settles 1 in 5 as history: ask for enough to leave `pending` waiting.
const withBook = <T>(pending: number, run: Run<T>) => withSeededPlatform({ users: 200, bets: Math.ceil(pending / 0.8) }, run);

export async function benchSettlements(): Promise<void> {
  const MEASURED = 2_000;
  await withBook(10_000, async (app, headers, secret) => {
    const first = await app.inject({ method: "GET", url: `/api/admin/sports-pending-bets?pageSize=500`, headers });
    const page = open(first.json<{ data: string }>().data, secret) as Page<SportsBet>;
    const ids: string[] = [];
    for (let n = 1; ids.length < WARM_UP + MEASURED; n++) {
      const reply = await app.inject({ method: "GET", url: `/api/admin/sports-pending-bets?pageSize=500&page=${n}`, headers });
      ids.push(...(open(reply.json<{ data: string }>().data, secret) as Page<SportsBet>).items.map((bet) => bet._id));
    }
    const timings: number[] = [];
    let measuredStart = performance.now();
    for (const [i, id] of ids.slice(0, WARM_UP + MEASURED).entries()) {
      if (i === WARM_UP) measuredStart = performance.now();
      const before = performance.now();
      const response = await app.inject({
        method: "POST",
        url: "/api/admin/settel-bet",
        headers,
        payload: { payload: seal({ bet: { _id: id }, status: 1 + (i % 3) }, secret) },
      });
      const elapsed = performance.now() - before;
      if (response.statusCode !== 200) throw new Error(`settling ${id} answered ${response.statusCode}: ${response.body}`);
      if (i >= WARM_UP) timings.push(elapsed);
    }
    const seconds = (performance.now() - measuredStart) / 1000;
    record(
      "Settlements through the platform (10,000 pending)",
      `${MEASURED} \`/settel-bet\` calls after ${WARM_UP} warm-up, one after another through app.inject as the super admin,
on a fresh PGlite holding ${page.total.toLocaleString("en-US")} pending bets; outcomes cycle won, lost, void, so each settlement is
one conditional update, one to two ledger transfers and one bet result, in one transaction. One after
another, each call is a transaction of its own; calls sent together are written together (group commit,
measured by Settle market… below).

| settlements per second | p50 | p95 | max |
|---|---|---|---|
| ${(MEASURED / seconds).toFixed(0)} | ${percentile(timings, 50).toFixed(1)} ms | ${percentile(timings, 95).toFixed(1)} ms | ${Math.max(...timings).toFixed(1)} ms |`,
    );
  });
}

export async function benchPendingList(): Promise<void> {
  const MEASURED = 200;
  await withBook(100_000, async (app, headers, secret, seedSeconds) => {
    const first = await app.inject({ method: "GET", url: `/api/admin/sports-pending-bets`, headers });
    const total = (open(first.json<{ data: string }>().data, secret) as Page<SportsBet>).total;
    const event = (open(first.json<{ data: string }>().data, secret) as Page<SportsBet>).items[0]!.eventId;
    const measure = async (queries: string[]) => {
      const timings: number[] = [];
      for (let i = 0; i < WARM_UP + MEASURED; i++) {
        const before = performance.now();
        const response = await app.inject({ method: "GET", url: `/api/admin/sports-pending-bets?pageSize=50${queries[i % queries.length]}`, headers });
        const elapsed = performance.now() - before;
        if (response.statusCode !== 200) throw new Error(`the pending list answered ${response.statusCode}: ${response.body}`);
        if (i >= WARM_UP) timings.push(elapsed);
      }
      return timings;
    };
    // The queue's first pages and the desk's filters; apart, a deep page (offset 49,950).
    const timings = await measure(["", "&page=2", `&eventId=${event}`, "&sport=football", "&sport=tennis&page=5", `&eventId=${event}&sport=cricket`]);
    const deep = await measure(["&page=1000"]);
    const p95 = percentile(timings, 95);
    record(
      "Pending sports bets at 100,000 (PGlite)",
      `${MEASURED} \`/sports-pending-bets\` pages of 50 after ${WARM_UP} warm-up, through app.inject as the super admin, on a fresh
PGlite holding ${total.toLocaleString("en-US")} pending bets, cycling the first pages and the event, sport and combined filters
(totals from the kept counts, or counted when two filters combine); page 1,000 (offset 49,950) measured apart. Seeding them
(bulk inserts, exposure reserved through the ledger) took ${seedSeconds.toFixed(0)} s. Budget: p95 within 50 ms.

| pages | p50 | p95 | max | within budget |
|---|---|---|---|---|
| first pages and filters | ${percentile(timings, 50).toFixed(1)} ms | ${p95.toFixed(1)} ms | ${Math.max(...timings).toFixed(1)} ms | ${p95 <= 50 ? "yes" : "no"} |
| page 1,000 | ${percentile(deep, 50).toFixed(1)} ms | ${percentile(deep, 95).toFixed(1)} ms | ${Math.max(...deep).toFixed(1)} ms | ${percentile(deep, 95) <= 50 ? "yes" : "no"} |`,
    );
  });
}
