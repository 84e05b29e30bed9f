/**
 * The console's request context: the request's logger, its W3C trace id (sent upstream in
 * `traceparent` on every call, recorded in the audit trail) and the operator, reachable from any
 * code the request runs without threading them through every call.
 *
 * server.ts imports app/lib once and the Remix server build bundles it again, so the one storage
 * and the one root logger live on globalThis: both copies must see the same request.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";
import { loadServiceConfig } from "./config.server";

export type RequestContext = {
  /** 32 hex digits: the W3C trace id every upstream call of this request carries. */
  traceId: string;
  log: Logger;
  /** The signed-in operator, once the session is read. */
  operator?: string;
};

/** What is never written, whatever a line carries (docs/operations.md "Logs"). */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "*.password",
  "*.newPassword",
  "*.oldPassword",
  "*.token",
  "*.secret",
  "*.code",
  "*.payload",
  "*.body",
];

type Shared = { storage: AsyncLocalStorage<RequestContext>; root?: Logger };
const SHARED = Symbol.for("betdesk.observability");
const shared: Shared = ((globalThis as Record<symbol, Shared | undefined>)[SHARED] ??= { storage: new AsyncLocalStorage() });

/**
 * A console logger: LOG_LEVEL (default `info`), JSON on stdout, readable through pino-pretty in
 * development; `destination` for tests that read the lines back.
 */
export function createConsoleLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const level = options.level ?? loadServiceConfig().LOG_LEVEL;
  const base = { level, base: { program: "console" }, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  if (options.destination) return pino(base, options.destination);
  const pretty = process.env.NODE_ENV === "development" && process.stdout.isTTY;
  return pretty ? pino({ ...base, transport: { target: "pino-pretty" } }) : pino(base);
}

/** The process's logger, created on first use unless a test installed its own first. */
export function rootLogger(): Logger {
  return (shared.root ??= createConsoleLogger());
}

export function installRootLogger(logger: Logger): void {
  shared.root = logger;
}

/** The current request's context, or none outside a request (start-up, jobs' timers, tests). */
export const requestContext = (): RequestContext | undefined => shared.storage.getStore();

/** The current request's logger, else the root one. */
export const currentLog = (): Logger => requestContext()?.log ?? rootLogger();

export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return shared.storage.run(context, work);
}

export const newTraceId = (): string => randomBytes(16).toString("hex");

/** The `traceparent` of one upstream call: this request's trace, a fresh span (W3C Trace Context). */
export const traceparentOf = (traceId: string): string => `00-${traceId}-${randomBytes(8).toString("hex")}-01`;

/** What a toast shows of a failed call: enough of the trace id to find its lines in both logs. */
export const traceReference = (traceId: string): string => traceId.slice(0, 12);

/** Notes who is signed in, for the request's log line. */
export function noteOperator(operator: string): void {
  const context = requestContext();
  if (context) context.operator = operator;
}
