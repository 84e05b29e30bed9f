/**
 * The platform's logs (docs/operations.md "Logs"): Fastify's own pino, one JSON line per request
 * with its id, the console's trace id (W3C `traceparent`, else `x-request-id`), the route
 * template (never the raw URL with its query), status and duration. Nothing secret: bodies are
 * never logged, and pino's redaction drops the headers and fields that could carry one.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import fp from "fastify-plugin";
import type { DestinationStream, LoggerOptions } from "pino";
import type { Env } from "../env.js";

/** What is never written, whatever a line carries. */
const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "*.password",
  "*.token",
  "*.secret",
  "*.payload",
  "*.body",
];

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** The caller's trace id: the trace of a valid `traceparent`, else a well-formed `x-request-id`. */
export function traceIdOf(headers: IncomingMessage["headers"]): string | undefined {
  const traceparent = TRACEPARENT.exec(String(headers.traceparent ?? "").trim().toLowerCase());
  if (traceparent) return traceparent[1];
  const requestId = headers["x-request-id"];
  return typeof requestId === "string" && REQUEST_ID.test(requestId) ? requestId : undefined;
}

export type LogTarget = { level?: string; stream?: DestinationStream };

/** Fastify's logger options: LOG_LEVEL (else info in production, warn otherwise), redaction, JSON on stdout or `stream`. */
export function loggerOptions(env: Pick<Env, "LOG_LEVEL" | "NODE_ENV">, target: LogTarget = {}): FastifyServerOptions["logger"] {
  const options: LoggerOptions & { stream?: DestinationStream } = {
    level: target.level ?? env.LOG_LEVEL ?? (env.NODE_ENV === "production" ? "info" : "warn"),
    base: { program: "platform" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    // The request's own line says what matters; the default serializer would write its raw URL.
    serializers: { req: (req: { method: string; id: string }) => ({ method: req.method, id: req.id }) },
  };
  if (target.stream) return { ...options, stream: target.stream };
  if (env.NODE_ENV === "development" && process.stdout.isTTY) return { ...options, transport: { target: "pino-pretty" } };
  return options;
}

/** Binds the trace id to every line a request's logger writes. */
export const childLoggerFactory: FastifyServerOptions["childLoggerFactory"] = function (logger, bindings, options, rawRequest) {
  const traceId = traceIdOf(rawRequest.headers);
  return logger.child(traceId ? { ...bindings, traceId } : bindings, options);
};

/** One line per request, when it is answered (Fastify's own two are off: app.ts's LogController). */
export default fp(async function requestLog(app: FastifyInstance) {
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      { method: request.method, route: request.routeOptions.url ?? "unmatched", status: reply.statusCode, durationMs: Math.round(reply.elapsedTime) },
      "request",
    );
  });
});
