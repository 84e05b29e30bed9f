import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
