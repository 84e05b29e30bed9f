/**
 * Prints one closing line for the whole `npm test` run, `N passed, N failed`, from the Vitest
 * and Playwright JSON reports, so CI reads a single verdict whatever the runners print.
 */
import { readFileSync } from "node:fs";

type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number };
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };

const vitest = JSON.parse(readFileSync(".cache/vitest.json", "utf8")) as VitestReport;
const playwright = JSON.parse(readFileSync(".cache/playwright.json", "utf8")) as PlaywrightReport;

const passed = vitest.numPassedTests + playwright.stats.expected + playwright.stats.flaky;
const failed = vitest.numFailedTests + playwright.stats.unexpected;
const skipped = vitest.numPendingTests + playwright.stats.skipped;
console.log(`vitest ${vitest.numPassedTests} passed; playwright ${playwright.stats.expected} passed`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
