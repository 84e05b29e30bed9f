import CryptoJS from "crypto-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScrape } from "../../../tests/fixtures/prometheus";
import { createApiClient } from "../api.server";
import type { Transport } from "../http-transport.server";
import { createJob, recordAnswers } from "../store/jobs.server";
import { openConsoleStore } from "../store/open.server";
import type { ConsoleStore } from "../store/schema";
import { createConsoleLogger, installRootLogger } from "./context.server";
import { metricsApp } from "./metrics-server.server";

let store: ConsoleStore;
let origin: string;
let close: () => void;

beforeAll(async () => {
  installRootLogger(createConsoleLogger({ level: "silent" }));
  store = await openConsoleStore({ kind: "pglite", dataDir: null });
  const server = metricsApp(store, "scrape-token").listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  close = () => server.close();
});
afterAll(async () => {
  close();
  await store.destroy();
});

const answering = (status: number, body: unknown): Transport => async () => ({ status, json: async () => body });
const call = (transport: Transport) =>
  createApiClient({ bases: { admin: "http://api.test/api/admin", sports: "http://api.test/api/sports" }, secret: "s", timeoutMs: 1000, routing: {}, transport });

describe("the console's /metrics", () => {
  it("refuses a scrape without the token", async () => {
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
  });

  it("reads back as Prometheus text: upstream calls by name and outcome, the store's figures, the process's metrics", async () => {
    await call(answering(200, { status: "SUCCESS", msg: "", data: CryptoJS.AES.encrypt("true", "s").toString() }))("logout", {}, {});
    await call(answering(400, { status: "FAIL", msg: "Invalid id" }))("logout", {}, {}).catch(() => undefined);
    await call(answering(502, { status: "FAIL", msg: "" }))("logout", {}, {}).catch(() => undefined);
    const response = await fetch(`${origin}/metrics`, { headers: { Authorization: "Bearer scrape-token" } });
    const scrape = parseScrape(await response.text());
    for (const outcome of ["ok", "refused", "unknown"]) {
      expect(scrape.value("betdesk_upstream_call_duration_seconds_count", { call: "logout", outcome }), outcome).toBeGreaterThanOrEqual(1);
    }
    expect(scrape.types.get("betdesk_upstream_call_duration_seconds")).toBe("histogram");
    expect(scrape.value("betdesk_jobs_running")).toBe(0);
    expect(scrape.value("betdesk_four_eyes_waiting")).toBe(0);
    expect(scrape.types.get("process_resident_memory_bytes")).toBe("gauge");
  });

  it("counts the stored jobs still unfinished and their unanswered items", async () => {
    const items = ["a", "b", "c"].map((key) => ({ key, label: key, requestId: key }));
    const running = await createJob(store, { operator: "admin", kind: "deposit", title: "Bulk deposit", items });
    const finished = await createJob(store, { operator: "admin", kind: "deposit", title: "Bulk deposit", items: items.slice(0, 1) });
    await recordAnswers(store, running, [{ key: "a", outcome: "done", message: "" }]);
    await recordAnswers(store, finished, [{ key: "a", outcome: "refused", message: "Insufficient balance" }]);
    const response = await fetch(`${origin}/metrics`, { headers: { Authorization: "Bearer scrape-token" } });
    const scrape = parseScrape(await response.text());
    expect(scrape.value("betdesk_jobs_running")).toBe(1);
    expect(scrape.value("betdesk_job_items_left")).toBe(2);
  });
});
