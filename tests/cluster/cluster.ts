/**
 * The deployment the cluster scenario runs against (scripts/cluster.sh, deploy/haproxy.cfg): the
 * consoles' balancer on CONSOLE_PORT with console A and B on the next two ports, the platforms'
 * balancer on PLATFORM_PORT likewise, one PostgreSQL and one Redis. Overridable, so that two
 * checkouts on one machine can run it at once.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const CONSOLE_PORT = Number(process.env.E2E_CLUSTER_CONSOLE_PORT ?? 3320);
const PLATFORM_PORT = Number(process.env.E2E_CLUSTER_PLATFORM_PORT ?? 4320);
const PG = process.env.CLUSTER_PG ?? "postgres://postgres@127.0.0.1:5432";
const DB = process.env.E2E_CLUSTER_DB ?? "betdesk_cluster_e2e";

/** What scripts/cluster.sh reads, for this run. */
export const CLUSTER_ENV = {
  CLUSTER_CONSOLE_PORT: String(CONSOLE_PORT),
  CLUSTER_PLATFORM_PORT: String(PLATFORM_PORT),
  CLUSTER_PG: PG,
  CLUSTER_DB: DB,
  CLUSTER_RUN_DIR: resolve(".cache/cluster-e2e"),
  REDIS_PREFIX: `betdesk-cluster-e2e-${PLATFORM_PORT}`,
  NODE_ENV: "test" as const,
};

export const CLUSTER = {
  /** The operators' one address. */
  balancer: `http://localhost:${CONSOLE_PORT}`,
  consoleA: `http://localhost:${CONSOLE_PORT + 1}`,
  consoleB: `http://localhost:${CONSOLE_PORT + 2}`,
  /** The consoles' upstream, and each platform on its own port. */
  platforms: `http://127.0.0.1:${PLATFORM_PORT}`,
  platformA: `http://127.0.0.1:${PLATFORM_PORT + 1}`,
  platformB: `http://127.0.0.1:${PLATFORM_PORT + 2}`,
  databaseUrl: `${PG}/${DB}`,
} as const;

/** The pid scripts/cluster.sh recorded for one of its processes. */
export const pidOf = (name: "console-a" | "console-b") => Number(readFileSync(`${CLUSTER_ENV.CLUSTER_RUN_DIR}/${name}.pid`, "utf8"));
