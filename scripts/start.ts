/**
 * `npm start`: builds the console when its sources changed, starts the embedded platform (unless
 * ADMIN_API_URL points elsewhere) and the console, pointed at the platform's PLATFORM_PORT, and
 * once both answer prints the address and the demo logins. `--dev` runs the console through Vite instead of the build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { consoleUpstream } from "./console-upstream";
import { waitForOk } from "./wait-for";

const dev = process.argv.includes("--dev");
const started = performance.now();
const platformPort = process.env.PLATFORM_PORT ?? "4000";
const consolePort = process.env.PORT ?? "3000";
const embedded = !process.env.ADMIN_API_URL;

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function buildIfStale(): void {
  const built = newestMtime("build/server/index.js");
  const sources = Math.max(...["app", "protocol", "vite.config.ts", "remix.config.js", "package-lock.json"].map(newestMtime));
  if (built > sources) return;
  console.log("building the console…");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const children: ChildProcess[] = [];
function launch(script: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: "inherit", env: { ...process.env, ...env } });
  child.on("exit", (code) => {
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 1);
  });
  children.push(child);
  return child;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

if (!dev) buildIfStale();
// Both start at once: the login page needs only the console, and the platform's first database
// creation is the slow part.
if (embedded) launch("platform/server.ts");
launch("server.ts", dev ? ["--dev"] : [], consoleUpstream(process.env, platformPort));
await Promise.all([
  embedded && waitForOk(`http://127.0.0.1:${platformPort}/api/health`, "the platform"),
  waitForOk(`http://127.0.0.1:${consolePort}/login`, "the console"),
]);

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`
  betdesk is ready in ${seconds} s:  http://localhost:${consolePort}
${
  embedded
    ? `  demo logins (embedded platform, not in production):
    admin  / admin123   super admin
    staff  / staff123   staff (deposits, withdraws)
    panel1 / panel123   partner`
    : `  upstream: ${process.env.ADMIN_API_URL}`
}
`);
