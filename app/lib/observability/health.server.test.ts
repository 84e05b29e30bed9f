import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { openConsoleStore } from "../store/open.server";
import type { ConsoleStore } from "../store/schema";
import { createConsoleLogger, installRootLogger } from "./context.server";
import { createHealth, storeCheck, upstreamCheck } from "./health.server";

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

let store: ConsoleStore;
let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  installRootLogger(createConsoleLogger({ level: "silent" }));
  store = await openConsoleStore({ kind: "pglite", dataDir: null });
  // An API base answering 404, as /api/admin itself does: it answers, so it counts as up.
  upstream = createServer((_req, res) => res.writeHead(404).end());
  upstreamUrl = `${await listen(upstream)}/api/admin`;
});
afterAll(() => upstream.listening && new Promise((resolve) => upstream.close(resolve)));

async function ready(health: ReturnType<typeof createHealth>) {
  const server = createServer(express().use(health.router));
  const response = await fetch(`${await listen(server)}/health/ready`);
  server.close();
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("the console's readiness", () => {
  it("answers 200 while its store and the upstream API answer; /health/live answers regardless", async () => {
    const health = createHealth([storeCheck(store), upstreamCheck(upstreamUrl)]);
    expect(await ready(health)).toEqual({ status: 200, body: { status: "ready", failed: [] } });
  });

  it("answers 503 naming the upstream when the API does not answer", async () => {
    const health = createHealth([storeCheck(store), upstreamCheck("http://127.0.0.1:9/api/admin")]);
    expect(await ready(health)).toEqual({ status: 503, body: { status: "unready", failed: ["upstream"] } });
  });

  it("answers 503 naming the shutdown at once when it drains", async () => {
    const health = createHealth([storeCheck(store), upstreamCheck(upstreamUrl)]);
    health.drain();
    expect(await ready(health)).toEqual({ status: 503, body: { status: "unready", failed: ["shutdown"] } });
  });

  it("answers 503 naming the store when the store is down", async () => {
    await store.destroy();
    const health = createHealth([storeCheck(store), upstreamCheck(upstreamUrl)]);
    expect(await ready(health)).toEqual({ status: 503, body: { status: "unready", failed: ["store"] } });
  });
});

describe("the shutdown's wait for the balancers", () => {
  const wait = { fall: 2, recentMs: 60_000, fallbackMs: 100, maxMs: 5_000 };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The health router on a server of its own at `host`; `check` asks /health/ready from there, as a balancer does. */
  async function serving(health: ReturnType<typeof createHealth>, host = "127.0.0.1") {
    const server = createServer(express().use(health.router));
    const port = await new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
    onTestFinished(() => void server.close());
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/health/ready`;
    return { check: async (headers: Record<string, string> = {}) => (await fetch(url, { headers })).status };
  }

  /** The drain begun and its wait: `ended` is null until the wait ends. */
  function draining(health: ReturnType<typeof createHealth>, asked = wait) {
    health.drain();
    const state = { ended: null as string | null };
    const told = health.balancersTold(asked).then((how) => (state.ended = how));
    return { told, state };
  }

  it("lasts until a balancer that checked has read its `fall` 503s, shown by its next check, however late they come", async () => {
    const health = createHealth([]);
    const { check } = await serving(health);
    expect(await check()).toBe(200);
    const { told, state } = draining(health);
    // Longer than the fallback: a balancer seen before the drain is waited for.
    await pause(300);
    expect(await check()).toBe(503);
    await pause(50);
    expect(state.ended).toBeNull();
    expect(await check()).toBe(503);
    // Its `fall`-th 503 sent, not yet known to be read: the balancer may still send a request here.
    await pause(50);
    expect(state.ended).toBeNull();
    expect(await check()).toBe(503);
    expect(await told).toBe("told");
  });

  it("counts each balancer's 503s: one told twice does not end the wait for another", async () => {
    let at = 0;
    const health = createHealth([], () => at);
    const [one, other] = [await serving(health), await serving(health, "::1")];
    await one.check();
    await other.check();
    at = 1;
    const { told, state } = draining(health);
    await one.check();
    await one.check();
    await one.check();
    await pause(50);
    expect(state.ended).toBeNull();
    await other.check();
    await other.check();
    await other.check();
    expect(await told).toBe("told");
  });

  it("does not count what the balancer relays from others (X-Forwarded-For) as its checks", async () => {
    const health = createHealth([]);
    const { check } = await serving(health);
    await check();
    const { told, state } = draining(health);
    const relayed = { "X-Forwarded-For": "203.0.113.7" };
    expect(await check(relayed)).toBe(503);
    expect(await check(relayed)).toBe(503);
    expect(await check(relayed)).toBe(503);
    await pause(50);
    expect(state.ended).toBeNull();
    await check();
    await check();
    await check();
    expect(await told).toBe("told");
  });

  it("waits the fallback when no balancer checked lately, and at most `maxMs` for one that stopped checking", async () => {
    expect(await createHealth([]).balancersTold(wait)).toBe("no checker");
    const health = createHealth([]);
    const { check } = await serving(health);
    await check();
    const started = Date.now();
    expect(await draining(health, { ...wait, maxMs: 200 }).told).toBe("timed out");
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("forgets a checker seen longer ago than `recentMs`", async () => {
    let at = 0;
    const health = createHealth([], () => at);
    const { check } = await serving(health);
    await check();
    at = 60_001;
    expect(await draining(health).told).toBe("no checker");
  });
});
