/**
 * The platform's Prometheus metrics (docs/operations.md "Metrics"): one registry per process,
 * served by plugins/metrics.ts on its own port. Services count what they committed; labels are
 * bounded (a route template, an outcome, a request kind), never an account or a bet.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const registry = new Registry();
registry.setDefaultLabels({ program: "platform" });
collectDefaultMetrics({ register: registry });
const registers = [registry];

export const metrics = {
  httpDuration: new Histogram({
    name: "http_request_duration_seconds",
    help: "Platform HTTP requests by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  }),
  betsSettled: new Counter({
    name: "betdesk_bets_settled_total",
    help: "Sports bets settled (committed) by outcome: WIN, FAIL, REFUND",
    labelNames: ["outcome"] as const,
    registers,
  }),
  requestsDecided: new Counter({
    name: "betdesk_requests_decided_total",
    help: "Deposit and withdrawal requests decided (committed) by kind and decision",
    labelNames: ["kind", "decision"] as const,
    registers,
  }),
  realtimeClients: new Gauge({ name: "betdesk_realtime_clients", help: "Sockets connected to this platform", registers }),
  dbPoolWaiting: new Gauge({ name: "betdesk_db_pool_waiting", help: "Queries waiting for a pooled database connection", registers }),
  ready: new Gauge({ name: "betdesk_ready", help: "1 while this platform's readiness check passes, else 0", registers }),
};

/** A request's decision as its label: 1 approved, 2 rejected (docs/protocol.md). */
export const decisionOf = (status: number): string => (status === 1 ? "approved" : "rejected");
