/**
 * How the console reaches the upstream APIs: node:http(s) over kept-alive connections. The global
 * `fetch` (undici, with its web streams, Request and Headers objects) costs about three times the
 * CPU per call, which a settlement job of a thousand calls feels (docs/benchmarks.md
 * "Settle market… through the console (1,000-bet market, PGlite)").
 */
import http from "node:http";
import https from "node:https";

export type TransportInit = { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal };
/** What the API client reads of an answer. A `Response` has it too, so a fake `fetch` can stand in. */
export type TransportAnswer = { status: number; json(): Promise<unknown> };
export type Transport = (url: URL, init: TransportInit) => Promise<TransportAnswer>;

/** A kept connection idle this long is closed, well before a server's keep-alive timeout could close it under a request. */
export const IDLE_CONNECTION_MS = 4_000;

const agents: Record<string, http.Agent> = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/** One request and its whole answer; rejects on a network failure, an abort, or an answer cut short. */
export const keepAliveTransport: Transport = (url, { method, headers, body, signal }) =>
  new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const sized = body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) };
    const request = client.request(url, { method, headers: sized, agent: agents[url.protocol], signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: response.statusCode ?? 0, json: async () => JSON.parse(text) as unknown });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
