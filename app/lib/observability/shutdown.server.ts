/**
 * The console's graceful shutdown (docs/operations.md "Shutdown"), in this order: readiness turns
 * 503 at once; on SIGTERM it waits until every balancer checking it has read enough 503s
 * to take it out (BALANCER_WAIT), as slowly as they come on a machine short of CPU;
 * the listener closes and requests in flight finish, up to SHUTDOWN_GRACE_MS (a job's chunk is
 * such a request: it finishes, or its items stay sent-unanswered for a resume to check, never to
 * send again); then the realtime sockets close, so browsers reconnect through the balancer to the
 * other console; last the databases. A second signal exits at once (close-with-grace).
 */
import type { Server } from "node:http";
import closeWithGrace from "close-with-grace";
import type { Logger } from "pino";
import type { BalancerWait, BalancerWaitEnd } from "./health.server";

/**
 * SIGTERM closes the listener once each balancer that checked readiness in the last 30 s has read
 * `fall 2` 503s, which its next check shows (deploy/haproxy.cfg: a check a second, so 2 to 3 s), at
 * most 15 s; with no balancer seen, after 3 s, as before the checks were counted. A fixed 3 s once
 * closed a console starved of CPU before HAProxy had seen its second 503, and a request sent to it
 * was reset (docs/operations.md "Shutdown").
 */
export const BALANCER_WAIT: BalancerWait = { fall: 2, recentMs: 30_000, fallbackMs: 3_000, maxMs: 15_000 };

export type ShutdownSteps = {
  /** Readiness answers 503 from now on. */
  drain: () => void;
  /** Resolves once the balancers have seen the 503s (health.server.ts, balancersTold). */
  balancersTold: (wait: BalancerWait) => Promise<BalancerWaitEnd>;
  /** Closes the realtime sockets (clients reconnect elsewhere). */
  closeSockets: () => Promise<void>;
  /** Closes the databases, last. */
  closeDatabases: () => Promise<void>;
};

/** Counts the server's requests in flight, for the wait before the sockets close. */
function inFlightOf(server: Server): () => number {
  let count = 0;
  server.on("request", (_req, res) => {
    count++;
    res.once("close", () => count--);
  });
  return () => count;
}

async function settled(inFlight: () => number, graceMs: number): Promise<boolean> {
  const deadline = Date.now() + graceMs;
  while (inFlight() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return inFlight() === 0;
}

export function closeGracefully(server: Server, steps: ShutdownSteps, { graceMs, log }: { graceMs: number; log: Logger }): void {
  const inFlight = inFlightOf(server);
  closeWithGrace(
    {
      delay: BALANCER_WAIT.maxMs + graceMs + 5_000,
      skip: ["uncaughtException", "unhandledRejection"],
      logger: { error: (message: unknown) => log.error(message) },
      onSecondSignal: (signal) => log.warn({ signal }, "second signal: exiting at once"),
    },
    async ({ signal }) => {
      steps.drain();
      log.info({ signal, graceMs }, "shutting down: readiness answers 503");
      // Ctrl+C in a terminal has no balancer to wait for.
      if (signal === "SIGTERM") log.info({ balancers: await steps.balancersTold(BALANCER_WAIT) }, "shutting down: balancers waited for");
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      if (!(await settled(inFlight, graceMs))) log.warn({ inFlight: inFlight() }, "grace period over: closing requests still in flight");
      await steps.closeSockets();
      server.closeAllConnections();
      await closed;
      await steps.closeDatabases();
      log.info("closed");
    },
  );
}
