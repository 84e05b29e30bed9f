/**
 * How the console is run as a service (docs/operations.md "Logs", "Metrics", "Shutdown"): read once
 * at start like env.server.ts, kept apart because only server.ts and these modules read it.
 */
import { z } from "zod";

const optionalPort = z.preprocess((value) => (value === "" ? undefined : value), z.coerce.number().int().min(1).max(65535).optional());

const schema = z.object({
  /** pino's level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** /metrics is served on this port only; unset: not served. */
  METRICS_PORT: optionalPort,
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** Set: /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().default(""),
  /** How long a SIGTERM waits for requests in flight and a job chunk before closing anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type ServiceConfig = z.infer<typeof schema>;

export function loadServiceConfig(source: Record<string, string | undefined> = process.env): ServiceConfig {
  // Tests stay quiet unless told otherwise.
  const parsed = schema.safeParse({ ...source, LOG_LEVEL: source.LOG_LEVEL || (source.NODE_ENV === "test" ? "silent" : undefined) });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`Invalid console configuration:\n${problems}`);
  }
  return parsed.data;
}
