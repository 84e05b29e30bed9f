import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepAliveTransport } from "./http-transport.server";

/** A local API: echoes what it was sent, or answers as the path asks. */
const connections = new Set<unknown>();
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    if (request.url === "/slow") return void setTimeout(() => response.end("{}"), 2_000);
    if (request.url === "/html") return void response.writeHead(502).end("<html>bad gateway</html>");
    if (request.url === "/cut") return void (response.writeHead(200, { "Content-Length": "100" }), response.write("{\"a\":"), response.destroy());
    response.writeHead(201, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ method: request.method, authorization: request.headers.authorization, body: Buffer.concat(chunks).toString("utf8") }));
  });
});
server.on("connection", (socket) => connections.add(socket));
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("the kept-alive transport to the upstream API", () => {
  it("sends the method, headers and body whole (non-Latin text too) and answers the status and JSON", async () => {
    const body = JSON.stringify({ payload: "सट्टा ✓ बेट" });
    const answer = await keepAliveTransport(new URL(`${base}/echo`), { method: "POST", headers: { Authorization: "Bearer t1", "Content-Type": "application/json" }, body });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ method: "POST", authorization: "Bearer t1", body });
  });

  it("keeps one connection for calls made one after another", async () => {
    connections.clear();
    for (let i = 0; i < 5; i++) await keepAliveTransport(new URL(`${base}/echo`), { method: "GET", headers: {} });
    expect(connections.size).toBeLessThanOrEqual(1);
  });

  it("rejects when the signal aborts, and when the answer is cut short", async () => {
    await expect(keepAliveTransport(new URL(`${base}/slow`), { method: "GET", headers: {}, signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await expect(keepAliveTransport(new URL(`${base}/cut`), { method: "GET", headers: {} })).rejects.toThrow();
  });

  it("answers a body that is not JSON, whose reading then fails", async () => {
    const answer = await keepAliveTransport(new URL(`${base}/html`), { method: "GET", headers: {} });
    expect(answer.status).toBe(502);
    await expect(answer.json()).rejects.toThrow(SyntaxError);
  });
});
