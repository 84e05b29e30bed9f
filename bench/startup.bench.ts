/**
 * Budget (issue 2): `npm start` on an already-installed checkout serves the login page within 15 s
 * of the command, including the first creation of the database: timed until the login page is
 * served AND the platform answers healthy, so an operator could sign in at that moment.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForOk } from "../scripts/wait-for";
import { record } from "./lib";

const BUDGET_S = 15;

async function timeStart(): Promise<number> {
  const dataDir = join(mkdtempSync(join(tmpdir(), "betdesk-start-")), "platform");
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "3420", PLATFORM_PORT: "4420" },
    stdio: "ignore",
    detached: true,
  });
  try {
    await Promise.all([
      waitForOk("http://127.0.0.1:3420/login", "the console", 120_000),
      waitForOk("http://127.0.0.1:4420/api/health", "the platform", 120_000),
    ]);
    return (performance.now() - started) / 1000;
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function benchStartup(): Promise<void> {
  const runs = [await timeStart(), await timeStart(), await timeStart()];
  const worst = Math.max(...runs);
  record(
    "npm start → login page served and platform healthy (fresh database each run)",
    [
      "| runs | worst | budget | |",
      "|---|---|---|---|",
      `| ${runs.map((s) => `${s.toFixed(1)} s`).join(", ")} | ${worst.toFixed(1)} s | ${BUDGET_S} s | ${worst <= BUDGET_S ? "within" : "OVER"} |`,
      "",
      "The console build is up to date in these runs (npm start rebuilds only when sources changed; a full build adds about 6 s).",
      "Each fresh database starts from the blank cluster kept on the machine (db/blank-cluster.ts, from 2026-11-29), not",
      "from initdb; the first ever made on a machine makes it, about 2 s more. On 2026-11-21, with initdb each time, on",
      "another machine: 6.6, 6.8 and 7.8 s.",
    ].join("\n"),
  );
}
