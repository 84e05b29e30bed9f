/**
 * The console's Prometheus metrics (docs/operations.md "Metrics"): one registry, served by
 * metrics-server.server.ts apart from the public routes. Labels are bounded: a route template, a
 * call name from protocol/calls.ts, an outcome; never an operator, a bet or a raw path.
 *
 * Like the request context, the registry lives on globalThis: server.ts and the Remix server build
 * each load this module, and both must count into the one registry /metrics reads.
 */
import type { Server as RealtimeServer } from "socket.io";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Seconds: from a cached page (a few ms) to an upstream call at its timeout (10 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new Registry();
  registry.setDefaultLabels({ program: "console" });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Console HTTP requests by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: "betdesk_upstream_call_duration_seconds",
      help: "Upstream API calls by call name (protocol/calls.ts) and outcome (ok, refused, unknown)",
      labelNames: ["call", "outcome"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    auditedActions: new Counter({
      name: "betdesk_console_actions_total",
      help: "Audited actions by kind (money, decision, settlement, …) and outcome (ok, refused, unknown)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    auditAppendDuration: new Histogram({
      name: "betdesk_audit_append_duration_seconds",
      help: "Appending entries to the audit trail's hash chain, per statement",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
    realtimeClients: new Gauge({ name: "betdesk_realtime_clients", help: "Browsers connected to this console's realtime relay", registers }),
    /** Read from the store at each scrape (observe-store.server.ts). */
    jobsRunning: new Gauge({ name: "betdesk_jobs_running", help: "Stored jobs with an item still unanswered", registers }),
    jobItemsLeft: new Gauge({ name: "betdesk_job_items_left", help: "Unanswered items of the stored jobs", registers }),
    fourEyesWaiting: new Gauge({ name: "betdesk_four_eyes_waiting", help: "Four-eyes actions waiting for a second operator", registers }),
    storePoolWaiting: new Gauge({ name: "betdesk_store_pool_waiting", help: "Queries waiting for a connection to the console's store", registers }),
    ready: new Gauge({ name: "betdesk_ready", help: "1 while this console's readiness check passes, else 0", registers }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const SHARED = Symbol.for("betdesk.console-metrics");

export const metrics: Metrics = ((globalThis as Record<symbol, Metrics | undefined>)[SHARED] ??= createMetrics());

/** Counts the browsers connected to the realtime relay. */
export function countRealtimeClients(io: RealtimeServer): void {
  io.on("connection", (socket) => {
    metrics.realtimeClients.inc();
    socket.once("disconnect", () => metrics.realtimeClients.dec());
  });
}
