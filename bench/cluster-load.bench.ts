/**
 * Two of everything under load (issue 20, part 3): scripts/cluster.sh starts two platforms and two
 * consoles behind HAProxy on loopback (fresh databases, in production mode with secrets of this
 * run's own), then autocannon plays 50 operators for 60 s through the consoles' balancer: each
 * browses Deposits, Users, Withdrawals and Pending Sport Bets (the screens' data, as a keystroke
 * fetches it) and decides a pending deposit request, over and over, each operator its own signed-in
 * session. Every decision names a request nobody else decides, so every answer should be a 200.
 * Recorded: throughput, latency percentiles, errors (socket errors, timeouts and non-2xx answers,
 * which must be 0), decisions made (checked in the platform's database) and the load average.
 *
 * Issue 31: rounds with observability on (LOG_LEVEL=info, JSON lines to each instance's log,
 * /metrics served and scraped by Prometheus every 5 s) and off (LOG_LEVEL=silent, no /metrics
 * listener), in the order on, off, off, on, on, off: every instance is restarted with `cluster.sh restart`
 * where the setting changes, and each round follows a warm-up that is not recorded.
 * Budget: observability costs at most 5 % of throughput (the mean of the rounds of each).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { percentile, record } from "./lib";

const OPERATORS = 50;
/** Each round's length, after a warm-up that is not recorded (a restarted process compiles and connects first). */
const SECONDS = 45;
const WARMUP_SECONDS = 15;
/** On, off, off, on, on, off: a drift of the machine over the run weighs on both alike. */
const ROUNDS = ["on", "off", "off", "on", "on", "off"] as const;
type Observability = (typeof ROUNDS)[number];
const COST_BUDGET = 0.05;
const INSTANCES = ["console-a", "console-b", "platform-a", "platform-b"] as const;
/** More pending requests than 50 operators can decide in every round, so none decides one twice. */
const PENDING = 20_000;
const CONSOLE_PORT = Number(process.env.BENCH_CLUSTER_CONSOLE_PORT ?? 3330);
const PLATFORM_PORT = Number(process.env.BENCH_CLUSTER_PLATFORM_PORT ?? 4330);
const PG = process.env.CLUSTER_PG ?? "postgres://postgres@127.0.0.1:5432";
const DB = "betdesk_cluster_bench";
const PASSWORD = randomBytes(12).toString("hex");
const BROWSED = ["/deposits.data", "/users.data", "/withdraws.data", "/pending-sport-bets.data"];

const clusterEnv = {
  ...process.env,
  CLUSTER_CONSOLE_PORT: String(CONSOLE_PORT),
  CLUSTER_PLATFORM_PORT: String(PLATFORM_PORT),
  CLUSTER_PG: PG,
  CLUSTER_DB: DB,
  CLUSTER_RUN_DIR: resolve(".cache/cluster-bench"),
  REDIS_PREFIX: `betdesk-cluster-bench-${PLATFORM_PORT}`,
  NODE_ENV: "production" as const,
  API_SECRET: randomBytes(24).toString("hex"),
  SESSION_SECRET: randomBytes(24).toString("hex"),
  MFA_KEY: randomBytes(24).toString("hex"),
};
const observabilityEnv = (observability: Observability) => (observability === "on" ? { LOG_LEVEL: "info", CLUSTER_METRICS: "on" } : { LOG_LEVEL: "silent", CLUSTER_METRICS: "off" });
const cluster = (args: string[], observability: Observability = "on") =>
  execFileSync("bash", ["scripts/cluster.sh", ...args], { env: { ...clusterEnv, ...observabilityEnv(observability) }, stdio: ["ignore", "inherit", "inherit"] });

/** The pending deposit requests' ids, written straight into the platform's database. */
async function seedPending(): Promise<string[]> {
  const db = new pg.Client({ connectionString: `${PG}/${DB}` });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>(
      `insert into deposit_requests (user_id, amount, type, utr, created_at)
       select u.id, 10000 + (n % 50) * 10000, 0, 'LOAD' || lpad(n::text, 8, '0'), now() - make_interval(secs => $1 - n)
         from generate_series(1, $1) n
         join lateral (select id from users order by id offset (n % 200) limit 1) u on true
       returning id::text`,
      [PENDING],
    );
    return rows.map((row) => row.id);
  } finally {
    await db.end();
  }
}

/**
 * In production every role must give a second factor until the super admin says otherwise: the
 * policy row is written as /second-factor saves it (no role), so the 50 operators sign in with the
 * password alone. Each request's session check is the same either way.
 */
async function noFactorPolicy(): Promise<void> {
  const db = new pg.Client({ connectionString: `${PG}/${DB}_console` });
  await db.connect();
  try {
    await db.query("insert into console_mfa_policy (roles) values ('[]') on conflict (only_row) do update set roles = excluded.roles");
  } finally {
    await db.end();
  }
}

const decided = async (ids: readonly string[]) => {
  const db = new pg.Client({ connectionString: `${PG}/${DB}` });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from deposit_requests where id = any($1::bigint[]) and status <> 0", [ids]);
    return rows[0]!.n;
  } finally {
    await db.end();
  }
};

/** Signs one operator in through the balancer; its session cookie. */
async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ username: "admin", password: PASSWORD }),
  });
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  if (response.status !== 302 || !cookie) throw new Error(`sign-in through the balancer answered ${response.status}`);
  return cookie;
}

type Round = { observability: Observability; result: autocannon.Result; p95: number; load: number };

export async function benchClusterLoad(): Promise<void> {
  cluster(["check"]);
  cluster(["reset"]);
  cluster(["start"]);
  try {
    // Production refuses the demo passwords: the super admin gets one of this run's own.
    execFileSync(process.execPath, ["--import", "tsx", "platform/cli.ts", "set-password", "admin"], {
      env: { ...clusterEnv, DATABASE_URL: `${PG}/${DB}` },
      input: PASSWORD,
      stdio: ["pipe", "ignore", "inherit"],
    });
    await noFactorPolicy();
    const pending = await seedPending();
    const base = `http://127.0.0.1:${CONSOLE_PORT}`;
    const cookies: string[] = [];
    for (let i = 0; i < OPERATORS; i++) cookies.push(await signIn(base));

    // Each request goes out as the next operator in turn: 50 connections, 50 sessions (kept in the store across restarts).
    let turn = 0;
    const as = (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, cookie: cookies[turn++ % OPERATORS]! } });
    const decisions: string[] = [];
    let answered = 0;
    const browse = BROWSED.map((path): autocannon.Request => ({ method: "GET", path, setupRequest: as }));
    const decide: autocannon.Request = {
      method: "POST",
      path: "/deposits.data",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      setupRequest: (request) => {
        const id = pending[decisions.length];
        if (id === undefined) throw new Error("the operators decided every pending request: raise PENDING");
        decisions.push(id);
        const form = { intent: "decide", id, decision: "1", usdt: "false", mainInrBonus: "", mainPrnBonus: "", inrBonus: "", prnBonus: "", inr: "" };
        return as({ ...request, body: new URLSearchParams(form).toString() });
      },
      onResponse: (status) => void (status === 200 && answered++),
    };

    const rounds: Round[] = [];
    let warmupErrors = 0;
    for (const observability of ROUNDS) {
      if (observability !== rounds.at(-1)?.observability && rounds.length > 0) {
        for (const instance of INSTANCES) cluster(["restart", instance], observability);
        // The balancer takes an instance back after two passing checks, a second apart.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      }
      const load = (duration: number, latencies: number[] = []) =>
        new Promise<autocannon.Result>((done, fail) => {
          const options = { url: base, connections: OPERATORS, duration, timeout: 30, requests: [browse[0]!, browse[1]!, decide, browse[2]!, browse[3]!] };
          const instance = autocannon(options, (error, finished) => (error ? fail(error) : done(finished)));
          instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
        });
      const warmup = await load(WARMUP_SECONDS);
      warmupErrors += warmup.errors + warmup.timeouts + warmup.non2xx;
      const latencies: number[] = [];
      const result = await load(SECONDS, latencies);
      rounds.push({ observability, result, p95: percentile(latencies, 95), load: loadavg()[0]! });
    }
    const applied = await decided(decisions);
    const errors = rounds.reduce((sum, { result }) => sum + result.errors + result.timeouts + result.non2xx, warmupErrors);
    const throughput = ({ result }: Round) => result.requests.total / result.duration;
    const mean = (observability: Observability) => {
      const of = rounds.filter((round) => round.observability === observability).map(throughput);
      return of.reduce((sum, value) => sum + value, 0) / of.length;
    };
    const cost = 1 - mean("on") / mean("off");

    record(
      "Two consoles and two platforms behind HAProxy: 50 operators, observability on and off",
      `\`npm run bench -- cluster-load\`: scripts/cluster.sh on loopback (HAProxy ${haproxyVersion()}, PostgreSQL and Redis on this machine, fresh databases, NODE_ENV=production), then autocannon with ${OPERATORS} connections, each request as the next of ${OPERATORS} signed-in operators, for ${SECONDS} s a round (after ${WARMUP_SECONDS} s of the same, not recorded) through the consoles' balancer: the data of Deposits, Users, Withdrawals and Pending Sport Bets (\`/deposits.data\` and the like, as a screen switch fetches them) and one decision on a pending deposit request (a request nobody else decides) in every five requests. ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores (the clients, HAProxy, both consoles, both platforms, PostgreSQL, Redis and Prometheus all on these cores).

Observability _on_: LOG_LEVEL=info (a JSON line per request and per upstream call into each instance's log), /metrics served on every instance and scraped by Prometheus every 5 s. _Off_: LOG_LEVEL=silent and no /metrics listener (the in-process counters and histograms still count: they have no switch). The rounds run on, off, off, on, on, off, so a drift of the machine weighs on both; every instance is restarted where the setting changes. Errors of the warm-ups count too.

| round | observability | requests | throughput | p50 | p95 | p99 | max | errors | load (1 min) |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rounds
  .map(
    (round, index) =>
      `| ${index + 1} | ${round.observability} | ${round.result.requests.total.toLocaleString("en")} | ${throughput(round).toFixed(1)} req/s | ${round.result.latency.p50} ms | ${round.p95.toFixed(0)} ms | ${round.result.latency.p99} ms | ${round.result.latency.max} ms | ${round.result.errors + round.result.timeouts + round.result.non2xx} | ${round.load.toFixed(1)} |`,
  )
  .join("\n")}

Mean throughput: on ${mean("on").toFixed(1)} req/s, off ${mean("off").toFixed(1)} req/s: observability costs ${(cost * 100).toFixed(1)} % (budget ${COST_BUDGET * 100} %: ${cost <= COST_BUDGET ? "within" : "OVER"}).
Decisions: ${answered.toLocaleString("en")} answered, ${applied.toLocaleString("en")} made (in the database). A decision counts as answered on a 200. Those made but not answered were in flight when autocannon stopped a round and
dropped their answers; the run fails if an answered decision is not in the database, or if more were made than sent.`,
    );
    // A decision still in flight when a round stopped may or may not have been made; every answered one was.
    if (errors > 0 || applied < answered || applied > decisions.length || cost > COST_BUDGET) process.exitCode = 1;
  } finally {
    cluster(["stop"]);
  }
}

const haproxyVersion = () => /version (\S+)/.exec(execFileSync("haproxy", ["-v"], { encoding: "utf8" }))?.[1] ?? "?";
