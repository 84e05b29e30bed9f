/**
 * The audit trail's write overhead per action (issue 19, ADR 0009): `auditedCall` around an upstream
 * answer that is already there, so all it measures is what recording adds to a deposit (redacting,
 * summarising, the chained append, one statement). On a file-backed PGlite store, the
 * default, and on PostgreSQL when TEST_DATABASE_URL is set. Budget: p95 under 5 ms.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { sql } from "kysely";
import { auditedCall } from "../app/lib/audit.server";
import { AUDIT_COUNT_LIMIT } from "../app/lib/audit-trail.server";
import { countAudit, listAudit, type AuditFilter } from "../app/lib/store/audit-log.server";
import { openConsoleStore } from "../app/lib/store/open.server";
import type { ConsoleStore } from "../app/lib/store/schema";
import type { DbTarget } from "../db/index";
import { percentile, record } from "./lib";

const WARMUP = 50;
const SAMPLES = 1000;
const BUDGET_MS = 5;

const actor = async () => ({ operator: "admin", operatorRole: 1, session: "0123456789abcdef" });

async function overhead(store: ConsoleStore): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const request = { user: String(1000 + i), isPartner: false, amount: 150.5, remark: "bench", requestId: `bench-${i}` };
    const started = performance.now();
    await auditedCall(store, actor, "userDeposit", request, async () => ({ data: { balance: 150.5, actorBalance: "unlimited" as const }, httpStatus: 200, message: "Deposit added successfully" }));
    if (i >= WARMUP) samples.push(performance.now() - started);
  }
  return samples;
}

type Run = (store: ConsoleStore, name: string, target: DbTarget) => Promise<string>;

async function measure(name: string, target: DbTarget, run: Run, cleanup: () => Promise<void>): Promise<string> {
  const store = await openConsoleStore(target);
  try {
    return await run(store, name, target);
  } finally {
    await store.destroy();
    await cleanup();
  }
}

/** A file-backed PGlite store, and a PostgreSQL one when TEST_DATABASE_URL is set: each measured by `run` (its table rows), then removed. */
export async function onEachStore(run: Run): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "audit-bench-"));
  const rows = [await measure("PGlite (file)", { kind: "pglite", dataDir: join(dir, "console") }, run, () => rm(dir, { recursive: true, force: true }))];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `audit_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    rows.push(
      await measure("PostgreSQL", { kind: "postgres", url, schema }, run, async () => {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }),
    );
  }
  return rows;
}

export async function benchAudit(): Promise<void> {
  const rows = await onEachStore(async (store, name) => {
    const samples = await overhead(store);
    const p95 = percentile(samples, 95);
    return `| ${name} | ${SAMPLES} | ${percentile(samples, 50).toFixed(2)} ms | ${p95.toFixed(2)} ms | ${Math.max(...samples).toFixed(2)} ms | ${BUDGET_MS} ms: ${p95 < BUDGET_MS ? "within" : "OVER"} |`;
  });
  record(
    "Audit trail: write overhead per action",
    `What recording adds to one deposit through the console (\`auditedCall\` around an answer already there: redaction, the answer's summary, the chained append, one statement), one action after another. Load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores while measured: the tail is the machine's.

| store | actions | p50 | p95 | max | budget (p95) |
|---|---|---|---|---|---|
${rows.join("\n")}`,
  );
}

const SCALE = 1_000_000;
const SCREEN_BUDGET_MS = 50;
const SCREEN_SAMPLES = 30;

/**
 * Fills the trail with SCALE entries in one statement: operators, calls, outcomes, accounts and jobs
 * spread as a busy house's would be, over the last 90 days. The filler is not chained (its hashes
 * are stand-ins): what is measured is reading the trail, which never checks them.
 */
async function fill(store: ConsoleStore): Promise<void> {
  await sql`
    insert into console_audit (seq, at, operator, operator_role, session, call, kind, account_id, account_name, amount,
      balance_before, balance_after, outcome, status, message, request, answer, prev_hash, hash, job_id)
    select n, now() - (${SCALE} - n) * interval '7776 milliseconds', 'operator' || (n % 40), 2, md5((n % 5000)::text),
      (array['userDeposit','userWithdraw','updateDeposit','updateWithdraw','settleBet','toggleUser','signIn','settings'])[1 + n % 8],
      'money', 'u' || (n % 20000), 'user' || lpad((n % 20000)::text, 5, '0'), (n % 997) + 0.5, null, null,
      (array['ok','ok','ok','ok','ok','ok','refused','unknown','held'])[1 + n % 9], 200, 'done',
      jsonb_build_object('user', 'u' || (n % 20000), 'amount', (n % 997) + 0.5), null,
      md5((n - 1)::text), md5(n::text), case when n % 10 < 3 then 'job-' || (n / 200) end
    from generate_series(1, ${SCALE}) as n`.execute(store);
  await sql`update console_audit_head set seq = ${SCALE}, hash = md5(${String(SCALE)})`.execute(store);
  await sql`analyze console_audit`.execute(store);
}

/** The store's part of /audit (a page of entries and their count) for each filter the screen offers, and a deep page. */
async function screenTimes(store: ConsoleStore): Promise<Array<[string, number[]]>> {
  const newest = await listAudit(store, {}, { limit: 1, offset: 0 });
  const at = newest[0]!.at.getTime();
  const cases: Array<[string, AuditFilter, number]> = [
    ["first page, no filter", {}, 1],
    ["operator", { operator: "operator7" }, 1],
    ["account (to or by)", { account: { name: "user00042", ids: ["u42"] } }, 1],
    ["call", { call: "settleBet" }, 1],
    ["outcome", { outcome: "unknown" }, 1],
    ["one day", { from: new Date(at - 86_400_000), to: new Date(at + 1) }, 1],
    ["job", { job: "job-4000" }, 1],
    ["page 1,000, no filter", {}, 1000],
    ["page 100, call", { call: "userDeposit" }, 100],
  ];
  const results: Array<[string, number[]]> = [];
  for (const [name, filter, page] of cases) {
    const samples: number[] = [];
    for (let i = 0; i < SCREEN_SAMPLES + 3; i++) {
      const started = performance.now();
      await Promise.all([listAudit(store, filter, { limit: 50, offset: (page - 1) * 50 }), countAudit(store, filter, AUDIT_COUNT_LIMIT)]);
      if (i >= 3) samples.push(performance.now() - started);
    }
    results.push([name, samples]);
  }
  return results;
}

export async function benchAuditAtScale(): Promise<void> {
  const fills: string[] = [];
  const rows = await onEachStore(async (store, name) => {
    const filling = performance.now();
    await fill(store);
    fills.push(`${name} ${((performance.now() - filling) / 1000).toFixed(0)} s`);
    return (await screenTimes(store))
      .map(([filter, samples]) => {
        const p95 = percentile(samples, 95);
        return `| ${name} | ${filter} | ${percentile(samples, 50).toFixed(1)} ms | ${p95.toFixed(1)} ms | ${SCREEN_BUDGET_MS} ms: ${p95 < SCREEN_BUDGET_MS ? "within" : "OVER"} |`;
      })
      .join("\n");
  });
  record(
    "Audit trail: /audit at 1,000,000 entries",
    `The store's part of one /audit page (its 50 entries and their count, read together as the loader reads them; a
filtered count stops past ${AUDIT_COUNT_LIMIT.toLocaleString("en-US")}, shown as "10000+", and the whole trail's is its head's number),
${SCREEN_SAMPLES} times per filter after 3 warm-up reads, on a trail of ${SCALE.toLocaleString("en-US")} entries (40 operators, 20,000 accounts,
8 calls, 4 outcomes, 30 % of them items of 5,000 jobs, over 90 days), filled in one statement (${fills.join(", ")}).
Load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.

| store | filter | p50 | p95 | budget (p95) |
|---|---|---|---|---|
${rows.join("\n")}`,
  );
}
