/**
 * The platform's configuration, read from the environment once at start and validated,
 * so a typo fails loudly at boot instead of at the first request that needs the value.
 */
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_HASH_COST, LEAST_HASH_COST } from "./security/password.js";

/** FEED_SEED's default, which the demo seed's bets stand on (sim/feed.ts). */
export const DEFAULT_FEED_SEED = 7;

/** The shared development secret; production refuses to start with it. */
export const DEV_API_SECRET = "betdesk-dev-api-secret";

// An exported-but-empty variable (`DATABASE_URL=`) means "unset", as in a shell script.
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

const EnvSchema = z.object({
  NODE_ENV: optional(z.enum(["development", "test", "production"]).default("development")),
  PLATFORM_HOST: optional(z.string().default("127.0.0.1")),
  PLATFORM_PORT: optional(z.coerce.number().int().min(0).max(65_535).default(4000)),
  /** Request body limit in bytes; larger bodies answer 413. */
  PLATFORM_BODY_LIMIT: optional(z.coerce.number().int().positive().default(1024 * 1024)),
  /** Unset → embedded PGlite in DATA_DIR; postgres:// → a PostgreSQL server. */
  DATABASE_URL: optional(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATA_DIR: optional(z.string().default("./data/platform")),
  API_SECRET: optional(z.string().default(DEV_API_SECRET)),
  /**
   * Key of the sealed password copies the super admin may read back; unset → derived from
   * API_SECRET. Separate so the envelope secret can rotate without losing the copies.
   */
  PASSWORD_REVEAL_KEY: optional(z.string().min(32, "must be at least 32 characters").optional()),
  /**
   * log2 of scrypt's N for new password hashes: lower outside production only (the test suites use
   * the least); production refuses anything but the default (docs/operations.md "Password hashing").
   */
  PASSWORD_HASH_COST: optional(z.coerce.number().int().min(LEAST_HASH_COST).max(DEFAULT_HASH_COST).default(DEFAULT_HASH_COST)),
  /** The activity simulator (sim/activity.ts); unset → on in development only. */
  SIM_ACTIVITY: optional(z.enum(["on", "off"]).optional()),
  SIM_REQUESTS_PER_MINUTE: optional(z.coerce.number().positive().max(6000).default(6)),
  /** The sports feed simulator (sim/feed.ts); unset → on in development only. */
  SIM_FEED: optional(z.enum(["on", "off"]).optional()),
  /** The feed simulator's seed: the same seed gives the same events and price moves. */
  FEED_SEED: optional(z.coerce.number().int().min(1).max(99).default(DEFAULT_FEED_SEED)),
  FEED_TICK_MS: optional(z.coerce.number().int().min(100).max(600_000).default(2000)),
  /** Bets the activity simulator places per minute (0: none). */
  SIM_BETS_PER_MINUTE: optional(z.coerce.number().min(0).max(6000).default(12)),
  /** Who may frame the scorecard page (CSP frame-ancestors): the console's origins. */
  SCORECARD_FRAME_ANCESTORS: optional(
    z
      .string()
      .regex(/^(?:'self'|https?:\/\/[\w.:[\]-]+)(?: (?:'self'|https?:\/\/[\w.:[\]-]+))*$/, "must be space-separated origins")
      .default("'self' http://localhost:3000 http://127.0.0.1:3000"),
  ),
  /** How long one casino server seed draws before it is retired and revealed (modules/bets/casino-draw.ts). */
  CASINO_SEED_HOURS: optional(z.coerce.number().min(0).max(24 * 365).default(24)),
  /** `spec`: answer exactly the spec's calls, as an operator's API would (plugins/profile.ts); `full`: every extension too. */
  PLATFORM_PROFILE: optional(z.enum(["full", "spec"]).default("full")),
  /** Set → socket.io shares events between platform instances through Redis. */
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional()),
  /** The Redis channel prefix: instances sharing it share events; deployments sharing a Redis use different ones. */
  REDIS_PREFIX: optional(z.string().regex(/^[\w.:-]{1,64}$/, "must be 1 to 64 letters, digits or _ . : -").default("betdesk-platform")),
  /** pino's level; unset: info in production, warn otherwise (docs/operations.md "Logs"). */
  LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional()),
  /** /metrics is served on this port only (plugins/metrics.ts); unset: not served. */
  PLATFORM_METRICS_PORT: optional(z.coerce.number().int().min(1).max(65_535).optional()),
  METRICS_HOST: optional(z.string().default("127.0.0.1")),
  /** Set: /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: optional(z.string().optional()),
  /** How long a SIGTERM waits for requests in flight before closing anyway. */
  SHUTDOWN_GRACE_MS: optional(z.coerce.number().int().min(0).default(10_000)),
});

export type Env = z.infer<typeof EnvSchema>;

/**
 * Validates `source` (default `process.env`). Throws when a value is invalid or when
 * production would run with the development secret; warns on one line otherwise.
 */
type Source = Record<string, string | undefined>;

function parse<T extends z.ZodTypeAny>(schema: T, source: Source): z.output<T> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid platform environment: ${problems.join("; ")}`);
  }
  return parsed.data;
}

export function loadEnv(source: Source = process.env): Env {
  const env = parse(EnvSchema, source);
  if (env.API_SECRET === DEV_API_SECRET) {
    if (env.NODE_ENV === "production") {
      throw new Error("API_SECRET still has its development value; set a secret before starting in production");
    }
    console.warn("warning: API_SECRET has its development value; set API_SECRET before exposing the platform");
  }
  return withProductionHashCost(env);
}

/** Throws when production would hash new passwords at less than the default cost. */
function withProductionHashCost<T extends Pick<Env, "NODE_ENV" | "PASSWORD_HASH_COST">>(env: T): T {
  if (env.NODE_ENV === "production" && env.PASSWORD_HASH_COST !== DEFAULT_HASH_COST) {
    throw new Error(`PASSWORD_HASH_COST ${env.PASSWORD_HASH_COST} is below ${DEFAULT_HASH_COST}, which production requires`);
  }
  return env;
}

/** Whether `npm start` runs the activity simulator: as told, else only in development. */
export const simActivityOn = (env: Pick<Env, "SIM_ACTIVITY" | "NODE_ENV">) =>
  (env.SIM_ACTIVITY ?? (env.NODE_ENV === "development" ? "on" : "off")) === "on";

/** Where uploaded files (receipts, slider images) live. */
export const uploadsDirOf = (env: Pick<Env, "DATA_DIR">) => join(env.DATA_DIR, "uploads");

/** Whether `npm start` runs the sports feed simulator: as told, else only in development. */
export const simFeedOn = (env: Pick<Env, "SIM_FEED" | "NODE_ENV">) => (env.SIM_FEED ?? (env.NODE_ENV === "development" ? "on" : "off")) === "on";

/** Only the database settings, for tools such as the db CLI that never serve requests. */
export type DbEnv = Pick<Env, "NODE_ENV" | "DATABASE_URL" | "DATA_DIR" | "API_SECRET" | "PASSWORD_REVEAL_KEY" | "PASSWORD_HASH_COST">;

/** The database settings, and the reveal key and hash cost the seed keeps demo passwords with. */
export function loadDbEnv(source: Source = process.env): DbEnv {
  return withProductionHashCost(
    parse(EnvSchema.pick({ NODE_ENV: true, DATABASE_URL: true, DATA_DIR: true, API_SECRET: true, PASSWORD_REVEAL_KEY: true, PASSWORD_HASH_COST: true }), source),
  );
}
