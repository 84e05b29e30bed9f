/**
 * The console's configuration, validated once when the server starts (docs/protocol.md "Addresses and configuration").
 * Secrets live here and only here: nothing under app/lib/*.server.ts reaches the browser bundle.
 */
import { z } from "zod";
import { parseRange, rangesOf } from "./addresses";
import { DEFAULT_TIME_ZONE } from "./constants";

export const DEV_API_SECRET = "betdesk-dev-api-secret";
export const DEV_SESSION_SECRET = "betdesk-dev-session-secret";
export const DEV_MFA_KEY = "betdesk-dev-second-factor-key-not-for-production";

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  ADMIN_API_URL: z.string().url().default("http://127.0.0.1:4000/api/admin"),
  SPORTS_API_URL: z.string().url().default("http://127.0.0.1:4000/api/sports"),
  SOCKET_URL: z.string().url().default("http://127.0.0.1:4000"),
  API_SECRET: z.string().min(8).default(DEV_API_SECRET),
  SESSION_SECRET: z.string().min(8).default(DEV_SESSION_SECRET),
  /** A console session unused this long is ended (ADR 0010). */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  /** A console session ends this long after sign-in however busy (ADR 0010). */
  SESSION_LIFETIME_HOURS: z.coerce.number().int().min(1).max(7 * 24).default(12),
  /** Seals the second factor's secrets in the console's store (AES-256-GCM); losing it loses every enrolment. */
  MFA_KEY: z.string().min(32, "must be at least 32 characters").default(DEV_MFA_KEY),
  /** The passkeys' relying party id (a domain); empty: the host the browser asked for. */
  WEBAUTHN_RP_ID: z.string().default(""),
  /** Origins a passkey ceremony may come from, comma-separated; empty: the request's own (behind a proxy: set it). */
  WEBAUTHN_ORIGINS: z.string().default(""),
  /** Moves calls between the two APIs: `permissions=sports,users=admin` (names: api-routes.server.ts). */
  API_ROUTING: z.string().default(""),
  API_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * The Odds History link of a pending bet: `{sport}`, `{eventId}`, `{marketId}` and `{createdAt}`
   * are filled in (e.g. `https://odds.example/{sport}/{eventId}?at={createdAt}`); empty: no link.
   */
  ODDS_HISTORY_URL: z.union([z.literal(""), z.string().url()]).default(""),
  /** Where the console's own store (the audit trail) lives when CONSOLE_DATABASE_URL is unset: embedded PGlite. */
  CONSOLE_DATA_DIR: z.string().min(1).default("./data/console"),
  /** A PostgreSQL store instead, which several console instances share (ADR 0008). */
  CONSOLE_DATABASE_URL: z.union([z.literal(""), z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")]).default(""),
  /**
   * The balancers in front (addresses or CIDR ranges, comma-separated; docs/operations.md): only a
   * connection from one of them may name the browser's address in X-Forwarded-For (and its scheme in
   * X-Forwarded-Proto); empty: the socket's own address, whatever a header says (ADR 0010).
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .refine((text) => rangesOf(text).every((range) => parseRange(range) !== null), "must list addresses or CIDR ranges, comma-separated"),
  /** The IANA zone every time in the console shows in, the status line's clock included. */
  TIME_ZONE: z
    .string()
    .default(DEFAULT_TIME_ZONE)
    .refine(isTimeZone, "must be an IANA time zone such as Asia/Kolkata"),
  /** Home: the oldest waiting deposit's or withdrawal's age turns amber past this many minutes… */
  HOME_AGE_AMBER_MINUTES: z.coerce.number().int().min(1).default(5),
  /** …and red past this many (docs/product-notes.md "Home: what needs you now"). */
  HOME_AGE_RED_MINUTES: z.coerce.number().int().min(1).default(15),
});

export type Env = z.infer<typeof schema> & { sessionSecrets: string[]; webauthnOrigins: string[]; trustedProxies: string[] };

/** Names of the secrets still at their development value. */
function developmentSecretsOf(env: Env): string[] {
  return [
    env.API_SECRET === DEV_API_SECRET && "API_SECRET",
    env.sessionSecrets.includes(DEV_SESSION_SECRET) && "SESSION_SECRET",
    env.MFA_KEY === DEV_MFA_KEY && "MFA_KEY",
  ].filter((name): name is string => Boolean(name));
}

function load(): Env {
  if (process.env.TRUST_PROXY) throw new Error("Invalid console configuration:\n  TRUST_PROXY is replaced by TRUSTED_PROXIES (e.g. TRUSTED_PROXIES=127.0.0.0/8,::1)");
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid console configuration:\n${problems}`);
  }
  const sessionSecrets = parsed.data.SESSION_SECRET.split(",").map((s) => s.trim()).filter(Boolean);
  const webauthnOrigins = parsed.data.WEBAUTHN_ORIGINS.split(",").map((s) => s.trim()).filter(Boolean);
  const env = { ...parsed.data, sessionSecrets, webauthnOrigins, trustedProxies: rangesOf(parsed.data.TRUSTED_PROXIES) };
  const devSecrets = developmentSecretsOf(env);
  if (devSecrets.length > 0 && env.NODE_ENV === "production") {
    throw new Error(`Refusing to start in production with development values for ${devSecrets.join(", ")}`);
  }
  return env;
}

export const env: Env = load();

/** For the start-up warning. */
export const developmentSecrets = (): string[] => developmentSecretsOf(env);
