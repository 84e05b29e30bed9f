/**
 * Budget (issue 2): first-load JavaScript of the login page and of the signed-in shell, each at
 * most 160 KB gzipped. Counts every script the page loads (modulepreloads included), gzipped.
 * The report screen's own JavaScript (its route and uPlot, loaded only when it opens) is
 * recorded apart: what the browser fetches going from the shell to Report V1 with `g r`.
 */
import { chromium, type Page } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { record, type Stack } from "./lib";

const BUDGET_KB = 160;

/** Gzipped KB of the scripts `page` loads from now until the returned stop is awaited. */
function scriptsLoaded(page: Page): () => Promise<number> {
  const sizes = new Map<string, number>();
  const listener = async (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => null);
    if (body) sizes.set(response.url(), gzipSync(body, { level: 9 }).length);
  };
  page.on("response", listener);
  return async () => {
    await page.waitForLoadState("networkidle");
    page.off("response", listener);
    return [...sizes.values()].reduce((a, b) => a + b, 0) / 1024;
  };
}

async function firstLoadJs(page: Page, url: string): Promise<number> {
  const stop = scriptsLoaded(page);
  await page.goto(url, { waitUntil: "networkidle" });
  return stop();
}

export async function benchBundle(stack: Stack): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const login = await firstLoadJs(await browser.newPage(), `${stack.consoleUrl}/login`);

  // The shell: a fresh browser context signs in, then the shell's own first load is measured.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.consoleUrl}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("admin123");
  await page.keyboard.press("Enter");
  await page.getByText("Signed in as admin").waitFor();
  const shellPage = await context.newPage();
  const shell = await firstLoadJs(shellPage, `${stack.consoleUrl}/`);
  const stopReport = scriptsLoaded(shellPage);
  await shellPage.keyboard.press("g");
  await shellPage.keyboard.press("r");
  await shellPage.locator("figure.report-chart[data-ready]").waitFor();
  const report = await stopReport();
  await browser.close();

  const row = (name: string, kb: number) =>
    `| ${name} | ${kb.toFixed(1)} KB | ${BUDGET_KB} KB | ${kb <= BUDGET_KB ? "within" : "OVER"} |`;
  record(
    "First-load JavaScript (gzipped)",
    ["| page | measured | budget | |", "|---|---|---|---|", row("login (/login)", login), row("signed-in shell (/)", shell)].join(
      "\n",
    ) + `\n\nThe report screen's own JavaScript, loaded only when it opens (from the shell, \`g r\`: its route and uPlot): ${report.toFixed(1)} KB gzipped.`,
  );
}
