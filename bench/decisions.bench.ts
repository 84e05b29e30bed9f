/**
 * Deposit decisions at volume: 10,000 pending deposit requests in a fresh temporary PGlite,
 * approved one after another through app.inject as the super admin (the full path: auth,
 * envelope, validation, the conditional update and the ledger transfers), with a bonus so
 * each approval writes two transfers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { seal } from "../protocol/envelope";
import { buildApp } from "../platform/app";
import { openDb } from "../platform/db/index";
import { migrate } from "../platform/db/migrate";
import { DEMO_ACCOUNTS, seed } from "../platform/seed";
import { loadEnv } from "../platform/env";
import { createRevealer } from "../platform/security/reveal";
import { adminHeaders, percentile, record } from "./lib";

const PENDING = 10_000;
const WARM_UP = 50;
const MEASURED = 2_000;
const BATCH = 1_000;

export async function benchDecisions(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "betdesk-decisions-bench-"));
  const env = loadEnv({ NODE_ENV: "test", API_SECRET: "bench-secret" });
  const db = await openDb({ kind: "pglite", dataDir: join(dataDir, "db") });
  try {
    await migrate(db);
    await seed(db, createRevealer(env), { users: 200, bets: 0 });
    const users = await db.selectFrom("users").select("id").orderBy("id").execute();
    const started = Date.now();
    for (let start = 0; start < PENDING; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, PENDING - start) }, (_, k) => {
        const i = start + k;
        return {
          user_id: users[i % users.length]!.id,
          amount: BigInt(100 + (i % 50) * 100) * 100n,
          type: i % 2,
          utr: `BENCH${String(i).padStart(8, "0")}`,
          created_at: new Date(started - (PENDING - i) * 1000),
        };
      });
      await db.insertInto("deposit_requests").values(rows).execute();
    }
    await sql`vacuum analyze`.execute(db);

    const app = buildApp({ db, env, uploadsDir: join(dataDir, "uploads") });
    const headers = await adminHeaders(app, env.API_SECRET, DEMO_ACCOUNTS.admin);
    const pending = await db
      .selectFrom("deposit_requests")
      .select("id")
      .where("utr", "like", "BENCH%")
      .orderBy("id")
      .limit(WARM_UP + MEASURED)
      .execute();

    const timings: number[] = [];
    let measuredStart = performance.now();
    for (const [i, { id }] of pending.entries()) {
      if (i === WARM_UP) measuredStart = performance.now();
      const before = performance.now();
      const response = await app.inject({
        method: "POST",
        url: "/api/admin/b2c/update-deposit",
        headers,
        payload: { payload: seal({ _id: String(id), status: 1, prnBonus: 5 }, env.API_SECRET) },
      });
      const elapsed = performance.now() - before;
      if (response.statusCode !== 200) throw new Error(`approval of ${id} answered ${response.statusCode}: ${response.body}`);
      if (i >= WARM_UP) timings.push(elapsed);
    }
    const seconds = (performance.now() - measuredStart) / 1000;
    await app.close();

    record(
      "Decisions through the platform (10,000 pending)",
      `${MEASURED} approvals after ${WARM_UP} warm-up, one after another through app.inject as the super admin, on a fresh
PGlite holding ${PENDING.toLocaleString("en-US")} pending deposit requests; each approval is one conditional update and two
ledger transfers (amount and a 5 % bonus) in one transaction.

| decisions per second | p50 | p95 | max |
|---|---|---|---|
| ${(MEASURED / seconds).toFixed(0)} | ${percentile(timings, 50).toFixed(1)} ms | ${percentile(timings, 95).toFixed(1)} ms | ${Math.max(...timings).toFixed(1)} ms |`,
    );
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
