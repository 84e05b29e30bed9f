/**
 * Issue 35: the first idle moment after sign-in readies the first visits. The desks marked
 * `readAhead` (app/lib/screens.ts) are read ahead, and read again once shown (news may have come
 * meanwhile); the sidebar's screens' code loads; the account lists' data is read ahead for every
 * operator but the super admin (whose pages carry passwords, which the API audits as shown).
 */
import type { Route } from "@playwright/test";
import { MESSAGES } from "../../app/lib/constants";
import { REALTIME_EVENTS } from "../../protocol/wire";
import { killServer, startConsole } from "../fixtures/e2e-stack";
import { DEMO, endUser, expect, ownConsole, signedInHeading, signIn, signInWithKeyboard, test } from "./fixtures";

test("the first idle moment after sign-in reads the desks ahead and loads the account lists' code, never their data @spec", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await signIn(page, DEMO.admin);
  await expect(page).toHaveURL(/\/$/);

  for (const desk of ["/deposits.data", "/withdraws.data", "/pending-sport-bets.data"]) {
    await expect.poll(() => asked.includes(desk), { message: `${desk} read ahead` }).toBe(true);
  }
  for (const code of [/\/assets\/_app\.users\.\(_panel\)-[\w-]+\.js$/, /\/assets\/_app\.partners\.\(_panel\)-[\w-]+\.js$/]) {
    await expect.poll(() => asked.some((path) => code.test(path)), { message: `${code} loaded` }).toBe(true);
  }
  expect(asked.filter((path) => path === "/users.data" || path === "/partners.data")).toEqual([]);

  // The desk read ahead paints on its first visit, and the account list still reads its own page.
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Deposits - Admin");
  await expect(page.getByRole("grid")).toBeVisible();
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Users - Admin");
  await expect(page.getByRole("grid", { name: "Users" })).toBeVisible();
  expect(asked).toContain("/users.data");
});

test("a panel's first idle moment reads its account lists ahead too, and its first visit to Users paints what was read @spec", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await signIn(page, DEMO.panel);
  for (const list of ["/users.data", "/partners.data", "/deposits.data"]) {
    await expect.poll(() => asked.includes(list), { message: `${list} read ahead` }).toBe(true);
  }

  // From here the list's own reads are held: what paints on the first visit is what was read ahead.
  const held: Route[] = [];
  await page.route(/\/users\.data/, (route) => void held.push(route));
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Users - Admin");
  await expect(page.getByRole("grid", { name: "Users" }).locator("[data-table-row]").first()).toBeVisible();
  await page.unroute(/\/users\.data/);
  // A held read the page gave up meanwhile (a newer reload took its place) is already handled.
  for (const route of held) await route.continue().catch((error: Error) => expect(error.message).toContain("Route is already handled"));
});

test("a deposit requested after the idle moment's read ahead shows on the first visit to Deposits @spec", async ({ page }) => {
  const readAhead = page.waitForResponse((response) => new URL(response.url()).pathname === "/deposits.data");
  await signIn(page, DEMO.admin);
  await readAhead;
  const utr = `UTRFV${Date.now()}`;
  await (await endUser("user0004", "user123")).deposit({ amount: 100, type: 0, utr });

  // What was read ahead paints at once, and the screen is read again: the new request shows.
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page.getByRole("row", { name: new RegExp(utr) })).toBeVisible();
});

test("news that reloads a desk read ahead while the console is out of reach keeps the console as it was @spec", async ({ page, consoleErrors }) => {
  const own = await ownConsole(3);
  const console_ = await startConsole(own.port, own.platformPort, own.dataDir);
  try {
    // The idle moment's read of Deposits is held in the browser until its console is gone; later reads of it go on.
    let heldRead!: (route: Route) => void;
    const held = new Promise<Route>((resolve) => (heldRead = resolve));
    let reads = 0;
    await page.route(/\/deposits\.data/, (route) => (++reads === 1 ? heldRead(route) : route.continue()));
    const news = new Promise<void>((resolve) =>
      page.on("websocket", (socket) => socket.on("framereceived", ({ payload }) => String(payload).includes(REALTIME_EVENTS.newDeposit) && resolve())),
    );
    // The other desks' reads ahead answer first: the held read is the last under way, so its fetcher is still mounted when the news's reload comes.
    const othersRead = ["/withdraws.data", "/pending-sport-bets.data"].map((path) => page.waitForResponse((response) => new URL(response.url()).pathname === path));
    await signInWithKeyboard(page, DEMO.admin, own.base);
    const readAhead = await held;
    await Promise.all(othersRead);

    // A deposit's news comes while the desk's read is under way: its reload waits for that read to end.
    await (await endUser("user0006", "user123")).deposit({ amount: 100, type: 0, utr: `UTROUT${Date.now()}` });
    await news;
    const before = consoleErrors.length;
    await killServer(console_);
    await readAhead.continue();

    // The read fails, then the news reloads what shows, and the desk's fetcher still mounted: nothing is reached.
    // The console keeps home as it was and says so, not the error page in its place, and the desk is not read again.
    await expect(page.getByText(MESSAGES.consoleUnreachable)).toBeVisible();
    expect(reads).toBe(1);
    await expect(signedInHeading(page, DEMO.admin.username)).toBeVisible();
    await expect(page.getByText("Unexpected Application Error")).toHaveCount(0);
    // What the page reported while its server was gone is the outage's doing (failed fetches, a closed socket).
    consoleErrors.splice(before);
  } finally {
    await page.close();
    await killServer(console_);
  }
});

test("the build's scripts go out to be cached for good (they are fingerprinted); signed-in pages are never cached @spec", async ({ page }) => {
  const scripts: Array<{ path: string; cacheControl: string | undefined }> = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith("/assets/") && path.endsWith(".js")) scripts.push({ path, cacheControl: response.headers()["cache-control"] });
  });
  await signIn(page, DEMO.admin);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(({ cacheControl }) => cacheControl !== "public, max-age=31536000, immutable")).toEqual([]);
  const home = await page.request.get("/");
  expect(home.headers()["cache-control"]).toBe("no-store");
});
