/**
 * Budget (issue 2): first-load JavaScript of the login page and of the signed-in shell, each at
 * most 160 KB gzipped: every script the page loads until its load event (modulepreloads included),
 * gzipped. The shell's first idle moment then reads the lettered screens' code and the layers'
 * ahead (issue 35, app/components/ui/Shell.tsx): recorded apart, as the report screen's own
 * JavaScript is (what the browser fetches going from the shell to Report V1 with `g r`).
 */
import { chromium, type Page } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { FIRST_VISITS_AFTER_MS } from "../app/lib/screen-cache";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { record, type Stack } from "./lib";

const BUDGET_KB = 160;

const FINDINGS = `2026-11-29: counted until the network was idle, as before, the shell measured 173.8 KB: from 2026-11-27 its
first idle moment reads the lettered screens' code ahead (issue 35), after the page has loaded. The scripts its HTML names,
what it loads before its load event, were 161.1 KB: the passkey ceremonies' library (@simplewebauthn/browser), which every screen's
re-authentication prompt imported, now loads when a passkey is used (app/lib/second-factor-client.ts), 2.7 KB less.
Merging the build's small chunks (Rollup's \`experimentalMinChunkSize\`, 1 to 20 KB) cut the shell's script requests
from 40 to 27 and the browser's CPU per new context by 11 to 18 % (a test's sign-in and two screens), but added 1.6 to 7.5 KB to this
first load: not kept. Grouped instead by the pages that load them (vite.chunks.ts, docs/decisions/0011-client-chunks.md): what every
page loads (the libraries' runtime, the app's own), what the signed-in layout and the sign-in page share, what the layout alone
imports. The shell 40 → 9 scripts and 158.4 → 148.6 KB, the sign-in page 19 → 7 and 129.2 → 126.0 KB, the idle read-ahead
75.3 → 72.2 KB. Per new context (a sign-in and two screens, 20 contexts, back to back with the build before): Chromium 0.62 → 0.55
CPU-s, the two servers 0.35–0.39 → 0.31; Playwright's stage 297 → 232 s.`;

/** Gzipped KB of the scripts `page` loads while `step` runs. */
async function scriptsLoadedBy(page: Page, step: () => Promise<unknown>): Promise<number> {
  const sizes: Array<Promise<number>> = [];
  const listener = (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() !== "script") return;
    sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0));
  };
  page.on("response", listener);
  await step();
  page.off("response", listener);
  return (await Promise.all(sizes)).reduce((a, b) => a + b, 0) / 1024;
}

/** Resolves once `page` has started no request and has none under way for `quietMs` (Playwright's networkidle, once reached, answers at once). */
async function untilQuiet(page: Page, quietMs = 500): Promise<void> {
  let pending = 0;
  let last = Date.now();
  const started = () => {
    pending++;
    last = Date.now();
  };
  const ended = () => {
    pending--;
    last = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  while (pending > 0 || Date.now() - last < quietMs) await page.waitForTimeout(50);
  page.off("request", started);
  page.off("requestfinished", ended);
  page.off("requestfailed", ended);
}

export async function benchBundle(stack: Stack): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const loginPage = await browser.newPage();
  const login = await scriptsLoadedBy(loginPage, () => loginPage.goto(`${stack.consoleUrl}/login`, { waitUntil: "load" }));

  // The shell: a fresh browser context signs in, then the shell's own first load is measured.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.consoleUrl}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("admin123");
  await page.keyboard.press("Enter");
  await page.getByText("Signed in as admin").waitFor();
  const shellPage = await context.newPage();
  const shell = await scriptsLoadedBy(shellPage, () => shellPage.goto(`${stack.consoleUrl}/`, { waitUntil: "load" }));
  const idle = await scriptsLoadedBy(shellPage, async () => {
    await shellPage.waitForTimeout(FIRST_VISITS_AFTER_MS);
    await untilQuiet(shellPage);
  });
  const report = await scriptsLoadedBy(shellPage, async () => {
    await shellPage.keyboard.press("g");
    await shellPage.keyboard.press("r");
    await shellPage.locator("figure.report-chart[data-ready]").waitFor();
    await untilQuiet(shellPage);
  });
  await browser.close();

  const row = (name: string, kb: number) =>
    `| ${name} | ${kb.toFixed(1)} KB | ${BUDGET_KB} KB | ${kb <= BUDGET_KB ? "within" : "OVER"} |`;
  record(
    "First-load JavaScript (gzipped)",
    ["| page | measured | budget | |", "|---|---|---|---|", row("login (/login)", login), row("signed-in shell (/)", shell)].join(
      "\n",
    ) +
      `\n\nEach page's scripts until its load event. Read ahead at the shell's first idle moment, ${FIRST_VISITS_AFTER_MS / 1000} s after it: ${idle.toFixed(1)} KB gzipped` +
      " (the lettered screens' code and the layers': palette, key help, job runner)." +
      ` The report screen's own JavaScript, loaded when it opens (from the shell, \`g r\`: its route and uPlot), past what the idle moment read: ${report.toFixed(1)} KB gzipped.` +
      `\n\n${FINDINGS}`,
  );
}
