/**
 * The console's /metrics: its own small HTTP server on METRICS_PORT, never one of the operators'
 * routes, and behind METRICS_TOKEN when one is set. The store's figures are read at each scrape.
 */
import { timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import express, { type Request } from "express";
import { sql } from "kysely";
import { poolWaiting } from "../../../db/index";
import { countPending } from "../store/four-eyes.server";
import type { ConsoleStore } from "../store/schema";
import { metrics } from "./metrics.server";

async function readStoreFigures(store: ConsoleStore): Promise<void> {
  const { jobs, items } = await store
    .selectFrom("console_jobs")
    .select([sql<string>`count(*)`.as("jobs"), sql<string>`coalesce(sum(unanswered), 0)`.as("items")])
    .where("unanswered", ">", 0)
    .executeTakeFirstOrThrow();
  metrics.jobsRunning.set(Number(jobs));
  metrics.jobItemsLeft.set(Number(items));
  metrics.fourEyesWaiting.set(await countPending(store));
  metrics.storePoolWaiting.set(poolWaiting(store));
}

/** Whether the request carries the token (compared in constant time); any request when none is set. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  if (!token) return true;
  const given = Buffer.from(authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function metricsApp(store: ConsoleStore, token: string) {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", async (req: Request, res) => {
    if (!bearerMatches(req.get("Authorization"), token)) return void res.status(401).type("text/plain").send("Unauthorized");
    // A store that cannot answer leaves its figures as last read; the process's own still answer.
    await readStoreFigures(store).catch(() => undefined);
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return app;
}

export function serveMetrics(store: ConsoleStore, { port, host, token }: { port: number; host: string; token: string }): Server {
  return metricsApp(store, token).listen(port, host);
}
