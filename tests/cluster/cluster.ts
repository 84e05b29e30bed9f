/**
 * The deployment the cluster scenario runs against (scripts/cluster.sh, deploy/haproxy.cfg): the
 * consoles' balancer on CONSOLE_PORT with console A and B on the next two ports, the platforms'
 * balancer on PLATFORM_PORT likewise, one PostgreSQL and one Redis. Overridable, so that two
 * checkouts on one machine can run it at once.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const CONSOLE_PORT = Number(process.env.E2E_CLUSTER_CONSOLE_PORT ?? 3320);
const PLATFORM_PORT = Number(process.env.E2E_CLUSTER_PLATFORM_PORT ?? 4320);
const PG = process.env.CLUSTER_PG ?? "postgres://postgres@127.0.0.1:5432";
const DB = process.env.E2E_CLUSTER_DB ?? "betdesk_cluster_e2e";
const PROMETHEUS_PORT = Number(process.env.E2E_CLUSTER_PROMETHEUS_PORT ?? 9290);

/** What scripts/cluster.sh reads, for this run. */
export const CLUSTER_ENV = {
  CLUSTER_CONSOLE_PORT: String(CONSOLE_PORT),
  CLUSTER_PLATFORM_PORT: String(PLATFORM_PORT),
  CLUSTER_PG: PG,
  CLUSTER_DB: DB,
  CLUSTER_PROMETHEUS_PORT: String(PROMETHEUS_PORT),
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
  /** Prometheus, scraping the four instances (deploy/prometheus.yml). */
  prometheus: `http://127.0.0.1:${PROMETHEUS_PORT}`,
} as const;

export type Instance = "console-a" | "console-b" | "platform-a" | "platform-b";

/** The pid scripts/cluster.sh recorded for one of its processes. */
export const pidOf = (name: Instance) => Number(readFileSync(`${CLUSTER_ENV.CLUSTER_RUN_DIR}/${name}.pid`, "utf8"));

/** `scripts/cluster.sh restart`: SIGTERM to one instance (it drains), then it again, until it is ready. */
export const restartInstance = (name: Instance) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn("bash", ["scripts/cluster.sh", "restart", name], { env: { ...process.env, ...CLUSTER_ENV }, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`restarting ${name} exited with ${code}`))));
  });

/** One number from Prometheus's query API (`/api/v1/query`): the instant vector's one sample, 0 when it has none. */
export async function prometheusValue(query: string): Promise<number> {
  const answer = (await (await fetch(`${CLUSTER.prometheus}/api/v1/query?${new URLSearchParams({ query })}`)).json()) as {
    status: string;
    data: { result: { value: [number, string] }[] };
  };
  if (answer.status !== "success") throw new Error(`Prometheus refused ${query}`);
  return answer.data.result.length === 0 ? 0 : Number(answer.data.result[0]!.value[1]);
}
