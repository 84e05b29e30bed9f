/**
 * `/health/live` (the process answers) and `/health/ready` (the console can serve: its store
 * answers and the upstream API answers). A draining console answers 503 at once, so a balancer
 * stops sending it requests before it closes (docs/operations.md "Liveness and readiness").
 */
import express from "express";
import { sql } from "kysely";
import type { ConsoleStore } from "../store/schema";
import { currentLog } from "./context.server";
import { metrics } from "./metrics.server";

export type ReadinessCheck = { name: string; check: () => Promise<void> };

/** A check slower than this fails: a balancer's own check times out soon after. */
export const CHECK_TIMEOUT_MS = 2_000;

export const storeCheck = (store: ConsoleStore): ReadinessCheck => ({ name: "store", check: async () => void (await sql`select 1`.execute(store)) });

/** The upstream API answers: any answer short of a 5xx (a bare base URL may well be a 404). */
export const upstreamCheck = (baseUrl: string, probe: typeof fetch = fetch): ReadinessCheck => ({
  name: "upstream",
  check: async () => {
    const response = await probe(baseUrl, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await response.body?.cancel();
    if (response.status >= 500) throw new Error(`answered ${response.status}`);
  },
});

const withTimeout = (work: Promise<void>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS).unref())]);

export function createHealth(checks: readonly ReadinessCheck[]) {
  let draining = false;
  const router = express.Router();
  router.get("/health/live", (_req, res) => void res.json({ status: "live" }));
  router.get("/health/ready", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (draining) {
      metrics.ready.set(0);
      return void res.status(503).json({ status: "unready", failed: ["shutdown"] });
    }
    const results = await Promise.all(
      checks.map(({ name, check }) =>
        withTimeout(check()).then(
          () => null,
          (error: unknown) => {
            currentLog().warn({ check: name, err: error }, "readiness check failed");
            return name;
          },
        ),
      ),
    );
    const failed = results.filter((name): name is string => name !== null);
    metrics.ready.set(failed.length === 0 ? 1 : 0);
    res.status(failed.length === 0 ? 200 : 503).json({ status: failed.length === 0 ? "ready" : "unready", failed });
  });
  return {
    router,
    /** From now on /health/ready answers 503: the first step of a graceful shutdown. */
    drain: () => void (draining = true),
  };
}
