/**
 * Prints one closing line for the whole `npm test` run, `N passed, N failed`, from the Vitest
 * and Playwright JSON reports, so CI reads a single verdict whatever the runners print.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";

type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number };
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };

// scripts/test.sh runs Vitest as two processes, each with its report (`vitest-<name>.json`).
const vitestReports = readdirSync(".cache")
  .filter((name) => /^vitest-.+\.json$/.test(name))
  .map((name) => JSON.parse(readFileSync(`.cache/${name}`, "utf8")) as VitestReport);
const vitest = vitestReports.reduce(
  (sum, report) => ({
    numPassedTests: sum.numPassedTests + report.numPassedTests,
    numFailedTests: sum.numFailedTests + report.numFailedTests,
    numPendingTests: sum.numPendingTests + report.numPendingTests,
  }),
  { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 },
);
const playwright = JSON.parse(readFileSync(".cache/playwright.json", "utf8")) as PlaywrightReport;
// The cluster scenario's report exists only when scripts/test.sh could run it.
const cluster = existsSync(".cache/playwright-cluster.json")
  ? (JSON.parse(readFileSync(".cache/playwright-cluster.json", "utf8")) as PlaywrightReport)
  : undefined;
for (const key of ["expected", "unexpected", "flaky", "skipped"] as const) playwright.stats[key] += cluster?.stats[key] ?? 0;

const passed = vitest.numPassedTests + playwright.stats.expected + playwright.stats.flaky;
const failed = vitest.numFailedTests + playwright.stats.unexpected;
const skipped = vitest.numPendingTests + playwright.stats.skipped;
console.log(
  `vitest ${vitest.numPassedTests} passed; playwright ${playwright.stats.expected} passed` +
    (cluster ? ` (cluster ${cluster.stats.expected})` : "; cluster scenario skipped"),
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
