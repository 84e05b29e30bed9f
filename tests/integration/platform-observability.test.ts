/**
 * The platform run as a service (issue 31): its /metrics read back with a Prometheus parser, its
 * readiness, and its one log line per request carrying the console's trace id and the route
 * template, never the raw URL.
 */
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../platform/app.js";
import { metricsServer } from "../../platform/plugins/metrics.js";
import { parseScrape } from "../fixtures/prometheus.js";
import { call, login, testDb, testEnv } from "./support/platform.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

async function platformWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
  const app = buildApp({ db: await testDb(), env: testEnv(), logger: { level: "info", stream } });
  await app.ready();
  return { app, lines };
}

describe("the platform as a service", () => {
  beforeAll(() => testDb());

  it("logs one line per request with the caller's trace id and the route template, not the URL", async () => {
    const { app, lines } = await platformWithLog();
    const token = await login(app, "admin", "admin123");
    await call(app, "GET", "/users?page=1&search=secret-search-term", { token, headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` } });
    const line = lines.find((candidate) => candidate.traceId === TRACE_ID);
    expect(line).toMatchObject({ msg: "request", method: "GET", status: 200, program: "platform" });
    expect(String(line?.route)).toMatch(/^\/api\/admin\//);
    expect(JSON.stringify(lines)).not.toContain("secret-search-term");
    expect(JSON.stringify(lines)).not.toContain(token);
    await app.close();
  });

  it("answers /health/live, and /health/ready 200 until it drains, then 503 naming the shutdown", async () => {
    const { app } = await platformWithLog();
    expect((await app.inject("/health/live")).statusCode).toBe(200);
    const ready = await app.inject("/health/ready");
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: "ready", failed: [] }]);
    app.drain();
    const draining = await app.inject("/health/ready");
    expect([draining.statusCode, draining.json()]).toEqual([503, { status: "unready", failed: ["shutdown"] }]);
    await app.close();
  });

  it("serves Prometheus text on its own listener, behind the token: request durations by route template and the process's metrics", async () => {
    const { app } = await platformWithLog();
    await app.inject("/api/health");
    const metrics = metricsServer(app, "scrape-token");
    expect((await metrics.inject("/metrics")).statusCode).toBe(401);
    const scraped = await metrics.inject({ url: "/metrics", headers: { authorization: "Bearer scrape-token" } });
    const scrape = parseScrape(scraped.body);
    expect(scrape.value("http_request_duration_seconds_count", { route: "/api/health", status: "200" })).toBeGreaterThan(0);
    expect(scrape.types.get("process_cpu_user_seconds_total")).toBe("counter");
    expect(scrape.types.get("betdesk_bets_settled_total")).toBe("counter");
    // Bounded labels: no raw path or id reaches a label.
    const routes = scrape.samples.filter((sample) => sample.name === "http_request_duration_seconds_count").map((sample) => sample.labels.route ?? "");
    expect(routes.every((route) => !/\?|\d{3,}/.test(route))).toBe(true);
    expect((await app.inject("/metrics")).statusCode).toBe(404);
    await metrics.close();
    await app.close();
  });
});
