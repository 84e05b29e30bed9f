/**
 * The per-request session check (issue 30, ADR 0010): `readSession` for a request carrying a
 * signed-in cookie, one fresh request after another (no per-request cache helps): opening the
 * cookie, the indexed lookup of its record, unsealing the upstream token. On a file-backed PGlite
 * store, and on PostgreSQL when TEST_DATABASE_URL is set. Budget: p95 under 1 ms.
 */
import { cpus, loadavg } from "node:os";
import { beginSession, readSession } from "../app/lib/session.server";
import { onEachStore } from "./audit.bench";
import { percentile, record } from "./lib";

const WARMUP = 200;
const SAMPLES = 2000;
const BUDGET_MS = 1;

export async function benchSessionCheck(): Promise<void> {
  const rows = await onEachStore(async (store, name) => {
    const context = { store, clientIp: "10.0.0.1" };
    const start = { token: "bench-token", udid: "bench-udid", username: "admin", role: 1, factor: "password" };
    const cookie = (await beginSession(new Request("http://console.bench/"), context, start)).split(";")[0]!;
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const request = new Request("http://console.bench/jobs", { headers: { Cookie: cookie } });
      const started = performance.now();
      if (!(await readSession(request, context))) throw new Error("the session was not found");
      if (i >= WARMUP) samples.push(performance.now() - started);
    }
    const p95 = percentile(samples, 95);
    return `| ${name} | ${SAMPLES} | ${percentile(samples, 50).toFixed(3)} ms | ${p95.toFixed(3)} ms | ${Math.max(...samples).toFixed(2)} ms | ${BUDGET_MS} ms: ${p95 < BUDGET_MS ? "within" : "OVER"} |`;
  });
  record(
    "Console sessions: the per-request check",
    `What finding the signed-in session costs each request (ADR 0010): the cookie opened, one indexed read of its record, the upstream token unsealed; last seen is written at most once a minute, so not here. One request after another. Ending a session needs no cache to expire: the next request on any instance reads the ended record. Load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores while measured.

| store | requests | p50 | p95 | max | budget (p95) |
|---|---|---|---|---|---|
${rows.join("\n")}`,
  );
}
