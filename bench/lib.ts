/** Helpers for benchmarks: start the stack on spare ports, and record figures in docs/benchmarks.md. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import type { FastifyInstance } from "fastify";
import { open, seal } from "../protocol/envelope";
import { waitForOk } from "../scripts/wait-for";

/** `stop` resolves once both processes have exited: a stack started next on the same ports meets none of this one's. */
export type Stack = { consoleUrl: string; platformUrl: string; stop: () => Promise<void> };

/** A fresh temporary PGlite directory, seeded by platform/cli.ts when `seed` is given. */
export function benchDataDir(seed?: { users: number; bets: number }): string {
  const dataDir = join(mkdtempSync(join(tmpdir(), "betdesk-bench-")), "platform");
  if (seed) {
    const seeded = spawnSync(process.execPath, ["--import", "tsx", "platform/cli.ts", "seed", "--users", String(seed.users), "--bets", String(seed.bets)], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (seeded.status !== 0) throw new Error("seeding the benchmark's database failed");
  }
  return dataDir;
}

/** `spec`: the platform answers only the spec's calls, as an operator's API would (platform/plugins/profile.ts). */
export type PlatformProfile = "full" | "spec";

/**
 * The platform plus the built console, on the given ports (BENCH_PLATFORM_PORT, BENCH_CONSOLE_PORT by default): on a fresh temporary database unless
 * `dataDir` names one (benchDataDir), the console on a fresh store, with the activity simulator only when `activity` says so
 * and the feed simulator's test interface only when `feedTestInterface` does; the platform with every extension unless `profile` says `spec`.
 */
export async function startStack(
  platformPort = Number(process.env.BENCH_PLATFORM_PORT ?? 4410),
  consolePort = Number(process.env.BENCH_CONSOLE_PORT ?? 3410),
  {
    dataDir = benchDataDir(),
    activity = false,
    feedTestInterface = false,
    profile = "full",
  }: { dataDir?: string; activity?: boolean; feedTestInterface?: boolean; profile?: PlatformProfile } = {},
): Promise<Stack> {
  const platform = await startPlatform(platformPort, { DATA_DIR: dataDir }, { activity, feedTestInterface, profile });
  const consoleChild = spawnScript("server.ts", {
    PORT: String(consolePort),
    // Its own store each run, as the platform its own database: a store kept from earlier runs slows the audit trail and the jobs.
    CONSOLE_DATA_DIR: join(mkdtempSync(join(tmpdir(), "betdesk-bench-")), "console"),
    ADMIN_API_URL: `${platform.url}/api/admin`,
    SPORTS_API_URL: `${platform.url}/api/sports`,
    SOCKET_URL: platform.url,
  });
  const children = [platform.child, consoleChild];
  const consoleUrl = `http://localhost:${consolePort}`;
  await waitForOk(`${consoleUrl}/login`, "the console");
  return { consoleUrl, platformUrl: platform.url, stop: () => Promise.all(children.map(stopChild)).then(() => undefined) };
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), in which /proc counts a process's CPU time. */
const CLOCK_TICKS_PER_S = 100;

/** What a process of the benchmark's runs, by the script its command line names (spawnScript); anything else is the browser. */
const CPU_GROUPS = [
  ["platform", "platform/server.ts"],
  ["console", "server.ts"],
] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number][0] | "browser" | "bench";

/**
 * The CPU time (user and system, in ms) used so far by the benchmark (`bench`) and by its descendants, grouped by what
 * they run: the platform, the console, and the browser (Playwright's Chromium, every other descendant). Read from
 * Linux's /proc, so two readings' difference says which process a timed run kept busy; null where there is no /proc.
 * A process that ended between the readings is not counted.
 */
export function cpuTimes(): Record<CpuGroup, number> | null {
  if (!existsSync("/proc/self/stat")) return null;
  const processes = new Map<number, { parent: number; ms: number; command: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After "pid (comm) ": state, ppid, … utime (the 14th field of stat), stime (the 15th).
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ").at(-1)!.split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      processes.set(Number(entry), { parent: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S, command });
    } catch {
      // It ended while being read.
    }
  }
  const times: Record<CpuGroup, number> = { platform: 0, console: 0, browser: 0, bench: processes.get(process.pid)?.ms ?? 0 };
  const visit = (parent: number, inherited: CpuGroup | null) => {
    for (const [pid, { parent: its, ms, command }] of processes) {
      if (its !== parent) continue;
      const group = inherited ?? CPU_GROUPS.find(([, script]) => command.includes(script))?.[0] ?? "browser";
      times[group] += ms;
      visit(pid, group);
    }
  };
  visit(process.pid, null);
  return times;
}

/** What each group used between two cpuTimes readings, in ms. */
export const cpuSpent = (before: Record<CpuGroup, number>, after: Record<CpuGroup, number>): Record<CpuGroup, number> => ({
  platform: after.platform - before.platform,
  console: after.console - before.console,
  browser: after.browser - before.browser,
  bench: after.bench - before.bench,
});

/** SIGTERM, then the exit: the console drains before it lets its port go. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM");
  return exited;
}

/**
 * BENCH_CPU_PROFILE=<dir>: the platform and the console each write a V8 CPU profile when they exit (`node --cpu-prof`),
 * in <dir>/platform-server-ts and <dir>/server-ts; bench/cpu-profile.ts reads the part of one a benchmark timed.
 */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

function spawnScript(script: string, env: Record<string, string>): ChildProcess {
  const profiled = CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${join(CPU_PROFILE_DIR, script.replace(/\W+/g, "-"))}`] : [];
  return spawn(process.execPath, [...profiled, "--import", "tsx", script], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * The platform alone on `port`, over the database `database` names (DATA_DIR or DATABASE_URL),
 * answering once healthy; the activity simulator only when `activity` says so, the feed's test interface when `feedTestInterface` does,
 * every extension unless `profile` says `spec`.
 */
export async function startPlatform(
  port: number,
  database: { DATA_DIR: string } | { DATABASE_URL: string },
  { activity = false, feedTestInterface = false, profile = "full" }: { activity?: boolean; feedTestInterface?: boolean; profile?: PlatformProfile } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnScript("platform/server.ts", {
    PLATFORM_PROFILE: profile,
    // Test mode opens the feed simulator's interface (POST /api/test/feed/finish) that closes markets.
    ...(feedTestInterface && { NODE_ENV: "test" }),
    PLATFORM_PORT: String(port),
    // Prices stand still, so a benchmark can place bets at the seeded prices; no feed ticks in the figures.
    SIM_FEED: "off",
    // By default nobody else places bets or requests: a market holds exactly the bets a benchmark put there.
    SIM_ACTIVITY: activity ? "on" : "off",
    ...database,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/api/health`, "the platform");
  return { url, child };
}

const REPORT = "docs/benchmarks.md";

/** Replaces (or appends) the section `## title` of docs/benchmarks.md with fresh figures. */
export function record(title: string, body: string): void {
  const header = `## ${title}`;
  const current = existsSync(REPORT) ? readFileSync(REPORT, "utf8") : "# Benchmarks\n\nWritten by `npm run bench`.\n";
  const section = `${header}\n\n_measured ${new Date().toISOString().slice(0, 16)}Z on ${process.platform}, node ${process.version}_\n\n${body.trim()}\n`;
  const start = current.indexOf(header);
  let next: string;
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const end = current.indexOf("\n## ", start + header.length);
    next = current.slice(0, start) + section + (end === -1 ? "" : `\n${current.slice(end + 1)}`);
  }
  writeFileSync(REPORT, `${next.trimEnd()}\n`);
  console.log(`${header}\n${body.trim()}\n`);
}

/** The p-th percentile (nearest rank) of samples in any order. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Signs the demo super admin in on an app built in-process; the bearer headers for its calls. */
export async function adminHeaders(
  app: FastifyInstance,
  secret: string,
  account: { username: string; password: string },
): Promise<{ authorization: string }> {
  const login = await app.inject({ method: "POST", url: "/api/admin/login", payload: { payload: seal(account, secret) } });
  const { token } = open(login.json<{ data: string }>().data, secret) as { token: string };
  return { authorization: `Bearer ${token}` };
}

const END_USER_SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";

/** A POST to the stack's end-user API as the site would send it; the opened answer, or the refusal thrown. */
export async function endUserCall(stack: Stack, path: string, body: unknown, token?: string): Promise<unknown> {
  const response = await fetch(`${stack.platformUrl}/api/user${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ payload: seal(body, END_USER_SECRET) }),
  });
  const answer = (await response.json()) as { status: string; msg: string; data: string };
  if (answer.status !== "SUCCESS") throw new Error(answer.msg);
  return open(answer.data, END_USER_SECRET);
}

/** A browser page signed in to the stack's console as the demo super admin, showing `path`. */
export async function adminPage(stack: Stack, browser: Browser, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signInConsole(page, stack.consoleUrl);
  await page.goto(`${stack.consoleUrl}${path}`);
  await page.getByText("● live").waitFor();
  return page;
}

/** Signs the demo super admin in on the console in a browser page and waits for the shell. */
export async function signInConsole(page: Page, consoleUrl: string): Promise<void> {
  await page.goto(`${consoleUrl}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("admin123");
  await page.keyboard.press("Enter");
  await page.getByText("Signed in as admin").waitFor();
}
