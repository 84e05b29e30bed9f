/**
 * `/health/live` (the process answers) and `/health/ready` (the console can serve: its store
 * answers and the upstream API answers). A draining console answers 503 at once, so a balancer
 * stops sending it requests before it closes (docs/operations.md "Liveness and readiness"); it
 * counts the 503s each balancer was answered, so the shutdown waits until every balancer that
 * checks it has seen enough of them to take it out, however slowly the checks came.
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

/** How the shutdown waits for the balancers (docs/operations.md "Shutdown"). */
export type BalancerWait = {
  /** Failed checks that take an instance out: HAProxy's `fall` (deploy/haproxy.cfg). */
  fall: number;
  /** A checker not seen for this long before the drain is taken to be gone. */
  recentMs: number;
  /** With no checker seen recently, this wait, as before checks were counted. */
  fallbackMs: number;
  /** The longest wait, however slowly the checks come. */
  maxMs: number;
};
/** What the wait ended on: every recent checker read its `fall` 503s, none was seen, or time ran out. */
export type BalancerWaitEnd = "told" | "no checker" | "timed out";

/** Addresses whose checks are remembered: balancers are a few; anyone else who asks pushes out the oldest. */
const MAX_CHECKERS = 64;

export function createHealth(checks: readonly ReadinessCheck[], now = () => Date.now()) {
  let draining = false;
  /** Each address that checks readiness (a balancer): when it last checked, and how often it asked since the drain. */
  const checkers = new Map<string, { lastSeen: number; askedWhileDraining: number }>();
  let checked = () => {};
  /**
   * The balancer asking, seen now; null for a request it relayed from someone else (it carries
   * X-Forwarded-For, which HAProxy's own checks do not): anyone asking through the balancer
   * must not pass for its checks and end the wait early.
   */
  const checkerOf = (req: express.Request) => {
    if (req.headers["x-forwarded-for"] !== undefined) return null;
    const address = req.socket.remoteAddress ?? "";
    const checker = checkers.get(address) ?? { lastSeen: 0, askedWhileDraining: 0 };
    // Kept in the order last seen, at most MAX_CHECKERS: addresses that reach it directly cannot grow the map.
    checkers.delete(address);
    checkers.set(address, checker);
    if (checkers.size > MAX_CHECKERS) checkers.delete(checkers.keys().next().value!);
    checker.lastSeen = now();
    return checker;
  };
  const router = express.Router();
  router.get("/health/live", (_req, res) => void res.json({ status: "live" }));
  router.get("/health/ready", async (req, res) => {
    res.set("Cache-Control", "no-store");
    const checker = checkerOf(req);
    if (draining) {
      metrics.ready.set(0);
      if (checker) {
        checker.askedWhileDraining++;
        checked();
      }
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
    /**
     * After the drain: resolves once every address that checked readiness within `recentMs` has
     * read `fall` 503s, which its next check shows (a balancer checks an instance one check at a
     * time): a 503 merely sent may still be unread by a balancer that sends a request here meanwhile,
     * and closing then reset that request (docs/operations.md "Shutdown"). A balancer starved of
     * answers takes longer and is waited for; with none seen, `fallbackMs`; at most `maxMs`.
     */
    balancersTold({ fall, recentMs, fallbackMs, maxMs }: BalancerWait): Promise<BalancerWaitEnd> {
      const since = now() - recentMs;
      const recent = [...checkers.values()].filter((checker) => checker.lastSeen >= since);
      const wait = recent.length === 0 ? fallbackMs : maxMs;
      return new Promise((resolve) => {
        const timer = setTimeout(() => end(recent.length === 0 ? "no checker" : "timed out"), wait);
        const end = (how: BalancerWaitEnd) => {
          clearTimeout(timer);
          checked = () => {};
          resolve(how);
        };
        checked = () => {
          if (recent.length > 0 && recent.every((checker) => checker.askedWhileDraining > fall)) end("told");
        };
        checked();
      });
    },
  };
}
