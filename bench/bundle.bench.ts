/**
 * Budget (issue 2): first-load JavaScript of the login page and of the signed-in shell, each at
 * most 160 KB gzipped. Counts every script the page loads (modulepreloads included), gzipped.
 */
import { chromium, type Page } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { record, type Stack } from "./lib";

const BUDGET_KB = 160;

async function firstLoadJs(page: Page, url: string, after?: () => Promise<void>): Promise<number> {
  const sizes = new Map<string, number>();
  const listener = async (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => null);
    if (body) sizes.set(response.url(), gzipSync(body, { level: 9 }).length);
  };
  page.on("response", listener);
  await page.goto(url, { waitUntil: "networkidle" });
  await after?.();
  await page.waitForLoadState("networkidle");
  page.off("response", listener);
  return [...sizes.values()].reduce((a, b) => a + b, 0) / 1024;
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
  const shell = await firstLoadJs(await context.newPage(), `${stack.consoleUrl}/`);
  await browser.close();

  const row = (name: string, kb: number) =>
    `| ${name} | ${kb.toFixed(1)} KB | ${BUDGET_KB} KB | ${kb <= BUDGET_KB ? "within" : "OVER"} |`;
  record(
    "First-load JavaScript (gzipped)",
    ["| page | measured | budget | |", "|---|---|---|---|", row("login (/login)", login), row("signed-in shell (/)", shell)].join(
      "\n",
    ),
  );
}
