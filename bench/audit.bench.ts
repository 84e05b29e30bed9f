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
import { auditedCall } from "../app/lib/audit.server";
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

async function measure(name: string, target: DbTarget, cleanup: () => Promise<void>): Promise<string> {
  const store = await openConsoleStore(target);
  try {
    const samples = await overhead(store);
    const p95 = percentile(samples, 95);
    return `| ${name} | ${SAMPLES} | ${percentile(samples, 50).toFixed(2)} ms | ${p95.toFixed(2)} ms | ${Math.max(...samples).toFixed(2)} ms | ${BUDGET_MS} ms: ${p95 < BUDGET_MS ? "within" : "OVER"} |`;
  } finally {
    await store.destroy();
    await cleanup();
  }
}

export async function benchAudit(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "audit-bench-"));
  const rows = [await measure("PGlite (file)", { kind: "pglite", dataDir: join(dir, "console") }, () => rm(dir, { recursive: true, force: true }))];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `audit_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    rows.push(
      await measure("PostgreSQL", { kind: "postgres", url, schema }, async () => {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }),
    );
  }
  record(
    "Audit trail: write overhead per action",
    `What recording adds to one deposit through the console (\`auditedCall\` around an answer already there: redaction, the answer's summary, the chained append, one statement), one action after another. Load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores while measured: the tail is the machine's.

| store | actions | p50 | p95 | max | budget (p95) |
|---|---|---|---|---|---|
${rows.join("\n")}`,
  );
}
