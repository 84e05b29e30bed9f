/**
 * Shared e2e fixtures: any console error or uncaught page error fails the test. Two lines are
 * allowed: a browser's own "Failed to load resource … 4xx" (a refused sign-in or form answers 4xx
 * by design), and the AbortError Remix's own single-fetch decoder logs when a newer navigation
 * cancels a data request whose answer was already arriving (a key pressed while the list reloads;
 * the router drops that answer as it should, only the log is left).
 */
import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { open, seal } from "../../protocol/envelope";
import { SETTINGS_TOASTS } from "../../protocol/rules";
import type { Page as ListPage, SportsBet } from "../../protocol/wire";
import { E2E_PROJECT_NAMES, EXTRA_CONSOLE_SPACING, type E2eProject } from "../fixtures/e2e-ports";
import { freshDataDir, SERVER_START_MS, startE2eStack, type E2eStack } from "../fixtures/e2e-stack";
import { RUNTIME_CHUNK } from "../../vite.chunks";

const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 4\d\d/;
const CANCELLED_BY_NAVIGATION = /^AbortError: signal is aborted without reason/;
/** Remix's client runtime chunk (the single-fetch decoder lives there), never the app's own code (vite.chunks.ts). */
const REMIX_RUNTIME = new RegExp(`/assets/${RUNTIME_CHUNK}-[\\w-]+\\.js$`);

/** Collects `page`'s console errors and uncaught errors into `errors`, but for the two allowed lines. */
export function collectErrors(page: Page, errors: string[]) {
  page.on("console", (message) => {
    if (message.type() !== "error" || EXPECTED_REFUSAL.test(message.text())) return;
    const { url, lineNumber } = message.location();
    if (CANCELLED_BY_NAVIGATION.test(message.text()) && REMIX_RUNTIME.test(url)) return;
    errors.push(`console.error: ${message.text()} (${url}:${lineNumber})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
}

/** The pair of servers this worker drives; null in a run that brings its own (the cluster scenario). */
let started: E2eStack | null = null;

/** The running worker's pair: a scenario's console and platform. */
export function workerStack(): E2eStack {
  if (!started) throw new Error("no end-to-end stack in this worker: its project is not full or spec");
  return started;
}

/**
 * A console of the scenario's own, for one it kills (tests/fixtures/e2e-stack.ts `startConsole`): the
 * worker's platform, the `nth` spare port above the worker's console, a fresh store directory. Each
 * scenario that starts one takes an `nth` no other takes: jobs.spec 1 and 2, first-visits.spec 3.
 */
export async function ownConsole(nth: number) {
  const { platformPort, consolePort } = workerStack();
  const port = consolePort + nth * EXTRA_CONSOLE_SPACING;
  return { platformPort, port, base: `http://localhost:${port}`, dataDir: await freshDataDir("console") };
}
export type OwnConsole = Awaited<ReturnType<typeof ownConsole>>;

/** The platform of the running scenario's worker. */
export const platformUrl = () => workerStack().platformUrl;
/** The console the running scenario's pages address: its worker's, or the one its config names (the cluster's balancer). */
export const consoleUrl = () => started?.consoleUrl ?? test.info().project.use.baseURL ?? workerStack().consoleUrl;

export const test = base.extend<{ consoleErrors: string[]; otherContextsClosed: void }, { stack: E2eStack | null }>({
  // Each worker starts its own platform and console for its project (playwright.config.ts), and its
  // scenarios' pages address that console.
  stack: [
    async ({}, use, workerInfo) => {
      const project = workerInfo.project.name;
      if (!E2E_PROJECT_NAMES.includes(project as E2eProject)) return use(null);
      started = await startE2eStack(project as E2eProject, workerInfo.parallelIndex);
      await use(started);
      await started.stop();
      started = null;
    },
    { scope: "worker", auto: true, timeout: 2 * SERVER_START_MS },
  ],
  baseURL: async ({ baseURL, stack }, use) => use(stack?.consoleUrl ?? baseURL),
  // A second operator's browser (`browser.newContext()`) is the test's to open, and Playwright
  // closes only its own context: left open, each stayed signed in for the rest of the run, its
  // clock repainting every second and every live update after it, a load that grew scenario after scenario.
  otherContextsClosed: [
    async ({ browser, context }, use) => {
      await use();
      await Promise.all(browser.contexts().filter((other) => other !== context).map((other) => other.close()));
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      collectErrors(page, errors);
      await use(errors);
      expect(errors, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const DEMO = {
  admin: { username: "admin", password: "admin123" },
  staff: { username: "staff", password: "staff123" },
  panel: { username: "panel1", password: "panel123" },
} as const;

/** Moves the palette's (or a dialog's) list to the option holding `text` with ↓ and chooses it with Enter. */
export async function chooseOption(page: Page, list: Locator, text: string) {
  const target = list.getByRole("option").filter({ hasText: text }).first();
  await expect(target).toBeVisible();
  const index = (await list.getByRole("option").allTextContents()).findIndex((label) => label.includes(text));
  for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
  await expect(target).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
}

/** Home's heading naming the operator signed in: the shell is up. */
export const signedInHeading = (page: Page, username: string) => page.getByRole("heading", { name: `Signed in as ${username}` });

/** Types the credentials with the keyboard alone (type, Tab, type, Enter) on the login screen of `base` (the page's own console unless named). */
export async function submitLogin(page: Page, account: { username: string; password: string }, base = "") {
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").focus();
  await page.keyboard.type(account.username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
}

/** Signs in with the keyboard (type, Tab, type, Enter) and waits for the shell: the scenarios about signing in. */
export async function signInWithKeyboard(page: Page, account: { username: string; password: string }, base = "") {
  await submitLogin(page, account, base);
  await expect(signedInHeading(page, account.username)).toBeVisible();
}

/**
 * Signs in, where signing in is a test's precondition, and waits for the shell on home: the
 * call the login form's session machine makes (POST /session from this console's own origin,
 * its cookie into the page's context), then home. Typing the form before each of some 250
 * sign-ins cost half a second each (docs/benchmarks.md, "The test suite"); the keyboard sign-in
 * is a scenario of its own (`signInWithKeyboard`, `submitLogin`). `console_`: the console the page's
 * context addresses, where that is not the worker's (the cluster's pages on one console each).
 */
export async function signIn(page: Page, account: { username: string; password: string }, console_ = consoleUrl()) {
  await startSession(page, account, console_);
  await page.goto("/");
  await expect(signedInHeading(page, account.username)).toBeVisible();
}

/** The session of `signIn` alone, for a scenario whose first step opens a screen of its own rather than home. */
export async function startSession(page: Page, account: { username: string; password: string }, console_ = consoleUrl()) {
  const origin = new URL(console_).origin;
  const answer = await page.request.post(`${origin}/session`, { data: { intent: "signIn", ...account }, headers: { Origin: origin } });
  expect(await answer.json(), `signing in as ${account.username}`).toEqual({ ok: true, redirectTo: "/" });
}

/** Opens the palette with Ctrl+K and waits until its field takes the keys typed next. */
export async function openPalette(page: Page) {
  await page.keyboard.press("Control+k");
  await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Command palette" })).toBeFocused();
}

/** Opens the palette with Ctrl+K and runs the best match for `text`. */
export async function runCommand(page: Page, text: string) {
  await openPalette(page);
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** A deposit from the palette (`deposit`): the account picked by its username, the amount, the remark (none by default), confirmed with `y`. */
export async function depositFromPalette(page: Page, account: string, amount: string, remark = "") {
  await runCommand(page, "deposit");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type(account);
  await expect(palette.getByRole("option", { name: new RegExp(account) })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.type(amount);
  await page.keyboard.press("Enter");
  if (remark) await page.keyboard.type(remark);
  await page.keyboard.press("Enter");
  await expect(palette.getByText(`Deposit ${amount} to ${account}?`)).toBeVisible();
  await page.keyboard.press("y");
  await expect(palette).toHaveCount(0);
}

/** The platforms' development envelope key. */
const API_SECRET = process.env.API_SECRET ?? "betdesk-dev-api-secret";

type UserAnswer = { status: string; msg: string; data: unknown };

/** One call of the end-user API, answered as the site would read it (not checked). */
async function userCall(path: string, body?: unknown, token?: string, userAgent = "betdesk-e2e", base = platformUrl()): Promise<UserAnswer> {
  const response = await fetch(`${base}/api/user${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      "User-Agent": userAgent,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify({ payload: seal(body, API_SECRET) }),
  });
  const answer = (await response.json()) as { status: string; msg: string; data: string | null };
  return { ...answer, data: answer.data ? open(answer.data, API_SECRET) : null };
}

type BetRequest = { eventId: string; marketId: string; runner: string; isBack: 0 | 1; price: number; amount: number };

/** An end user of the site: signs in through the end-user API (of `base`: the worker's platform unless named), then calls it as the site would. */
export async function endUser(username: string, password: string, userAgent = "betdesk-e2e", base = platformUrl()) {
  const call = async (path: string, body?: unknown, token?: string) => {
    const answer = await userCall(path, body, token, userAgent, base);
    expect(answer.status, answer.msg).toBe("SUCCESS");
    return answer.data;
  };
  const { token } = (await call("/login", { username, password })) as { token: string };
  return {
    me: () => call("/me", undefined, token) as Promise<{ balance: number; bonus: number }>,
    deposit: (request: { amount: number; type: 0 | 1 | 2; utr: string; couponCode?: string }) =>
      call("/deposit-request", request, token),
    withdraw: (request: { amount: number; bank: Record<string, string> }) => call("/withdraw-request", request, token),
    bet: (request: BetRequest) => call("/bet", request, token) as Promise<{ _id: string; balance: number; exposure: number }>,
    casinoBet: (request: { providerCode: string; gameCode: string; roundId: string; amount: number }) => call("/casino-bet", request, token),
    gameBet: (request: { gameId: string; roundId: string; runnerName: string; amount: number }) => call("/game-bet", request, token),
  };
}

/** Places `bet` as the first of `usernames` the site lets bet (a seeded user may have Login, Bet or a game flag off); its name. */
export async function betAsFirstAllowed(usernames: readonly string[], password: string, bet: BetRequest): Promise<string> {
  for (const username of usernames) {
    const login = await userCall("/login", { username, password });
    if (login.status !== "SUCCESS") continue;
    const placed = await userCall("/bet", bet, (login.data as { token: string }).token);
    if (placed.status === "SUCCESS") return username;
  }
  throw new Error(`none of ${usernames.join(", ")} may place the bet`);
}

/** The admin API as the super admin, for what a test must read beside the screen (prices on offer, results), and the sports API's reads. */
export async function adminApi(base = platformUrl()) {
  const call = async (method: "GET" | "POST", path: string, body?: unknown, token?: string, api: "admin" | "sports" = "admin") => {
    const response = await fetch(`${base}/api/${api}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify({ payload: seal(body, API_SECRET) }),
    });
    const answer = (await response.json()) as { status: string; msg: string; data: string | null };
    expect(answer.status, answer.msg).toBe("SUCCESS");
    return answer.data ? open(answer.data, API_SECRET) : null;
  };
  const { token } = (await call("POST", "/login", DEMO.admin)) as { token: string };
  return {
    get: (path: string) => call("GET", path, undefined, token),
    post: (path: string, body: unknown) => call("POST", path, body, token),
    sports: (path: string) => call("GET", path, undefined, token, "sports"),
  };
}

/**
 * The tag of a scenario an API with only the spec's calls can serve: the `spec` project
 * (playwright.config.ts) runs every test carrying it against PLATFORM_PROFILE=spec, while the
 * `full` project runs it against every extension too.
 */
export const SPEC_API = { tag: "@spec" } as const;

/** Whether the running test's project is the spec-only API (PLATFORM_PROFILE=spec). */
export const onSpecApi = () => test.info().project.name === "spec";

/**
 * Every bet pending on the platform, read as an operator's API serves it: page by page with `page`
 * alone, each answer's own size, until its `total` (a spec-only API drops filters and `pageSize`,
 * so a test must never trust a filtered read either).
 */
export async function allPendingBets(base = platformUrl()): Promise<SportsBet[]> {
  const api = await adminApi(base);
  const bets = new Map<string, SportsBet>();
  for (let page = 1; ; page++) {
    const answer = (await api.get(`/sports-pending-bets?page=${page}`)) as ListPage<SportsBet>;
    for (const bet of answer.items) bets.set(bet._id, bet);
    if (answer.items.length === 0 || bets.size >= answer.total) return [...bets.values()];
  }
}

/** Sets four-eyes thresholds on /approvals (`g E`) by keyboard, each field by its label ("" turns it off), and saves once. */
export async function setFourEyesThresholds(page: Page, values: Record<string, string>) {
  await page.keyboard.press("g");
  await page.keyboard.press("Shift+E");
  await expect(page).toHaveURL(/\/approvals$/);
  const form = page.getByRole("form", { name: "Four-eyes thresholds" });
  for (const [label, value] of Object.entries(values)) {
    await form.getByLabel(label).focus();
    await page.keyboard.press("ControlOrMeta+a");
    // Typing nothing would leave the selection standing: an empty value (off) must clear the field.
    await page.keyboard.press("Backspace");
    await page.keyboard.type(value);
  }
  // One save for them all: a second save's toast could not be told from the first's.
  await page.keyboard.press("Enter");
  await expect(page.getByText("Four-eyes thresholds saved")).toBeVisible();
}

/**
 * On a users list: selects the first `count` rows (`x`, then Shift+↓) and starts Bulk deposit of
 * `amount` with no remark; answers its dialog, which asks to confirm.
 */
export async function bulkDepositToFirst(page: Page, count: number, amount: string) {
  await page.keyboard.press("x");
  for (let i = 1; i < count; i++) await page.keyboard.press("Shift+ArrowDown");
  await expect(page.getByLabel("Status line")).toContainText(`${count} SELECTED`);
  await runCommand(page, "bulk deposit");
  await page.keyboard.type(amount);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  return page.getByRole("dialog", { name: "Bulk deposit" });
}

/** Adds a staff member holding one flag, through the palette's Add staff…. */
export async function addStaff(page: Page, account: { username: string; password: string }, flag: string) {
  await runCommand(page, "add staff");
  await page.keyboard.type(account.username);
  await page.keyboard.press("Enter");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
  await page.keyboard.type(flag);
  await page.keyboard.press("Enter");
  await page.keyboard.press("y");
  await expect(page.getByText(SETTINGS_TOASTS.staffAdded)).toBeVisible();
}

/**
 * At least `count` pending bets on one odds market with a back price on offer (of the platform at
 * `base`), placed by the first ten seeded users from user0041 who may bet: the offer, and the id
 * of every bet pending on its market.
 */
export async function betsOnOneMarket(count: number, base = platformUrl()) {
  const offer = (await allPendingBets(base)).find((bet) => bet.type === "odds" && bet.isBack && bet.marketId)!;
  const bet = { eventId: offer.eventId, marketId: offer.marketId!, runner: offer.runner, isBack: 1 as const, price: offer.x, amount: 10 };
  const players = [];
  for (let n = 41; n <= 80 && players.length < 10; n++) {
    const player = await endUser(`user${String(n).padStart(4, "0")}`, "user123", undefined, base).catch(() => null);
    // A seeded user may have Login, Bet or the sport off: the first bet tells.
    if (player && (await player.bet(bet).then(() => true, () => false))) players.push(player);
  }
  for (let i = players.length; i < count; i++) await players[i % players.length]!.bet(bet);
  const placed = (await allPendingBets(base)).filter((pending) => pending.marketId === offer.marketId).map((pending) => pending._id);
  expect(placed.length).toBeGreaterThanOrEqual(count);
  return { offer, placed };
}

/** Opens the offer's market on the pending bets screen (of the console at `base`) and Settle market… with its runner winning; the dialog, waiting for `y`. */
export async function openSettleMarket(page: Page, offer: SportsBet, base = "") {
  await page.goto(`${base}/pending-sport-bets?${new URLSearchParams({ eventId: offer.eventId, marketId: offer.marketId! })}`);
  await expect(page.locator("[data-table-row]").first()).toBeVisible();
  await runCommand(page, "Settle market");
  const chooser = page.getByRole("dialog", { name: "Settle market" });
  await expect(chooser.getByRole("listbox")).toBeVisible();
  const labels = await chooser.getByRole("option").allTextContents();
  const index = labels.findIndex((text) => text.startsWith(`${offer.runner} `));
  for (let i = 0; i < index; i++) await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  const run = page.getByRole("dialog", { name: "Settle market" });
  await expect(run).toContainText(`${offer.runner} won: settle`);
  return run;
}

/** Opens /jobs (`g J`) and puts the cursor on the one unfinished Settle market… job, ready for `r`. */
export async function pickSettleMarketJob(page: Page) {
  await page.keyboard.press("g");
  await page.keyboard.press("J");
  await expect(page).toHaveTitle("Jobs - Admin");
  const rows = page.locator("[data-table-row]");
  const row = rows.filter({ hasText: "Settle market" });
  await expect(row).toHaveCount(1);
  // The cursor starts on the first row; `j` walks it down to the job's.
  const texts = await rows.allTextContents();
  for (let i = 0; i < texts.findIndex((text) => text.includes("Settle market")); i++) await page.keyboard.press("j");
  await expect(row).toHaveAttribute("data-cursor", "");
}

/** Each seeded user's balance, read through the admin API by username. */
export async function balancesOf(usernames: readonly string[]): Promise<Map<string, number>> {
  const api = await adminApi();
  const found = new Map<string, number>();
  for (const username of usernames) {
    const page = (await api.get(`/users?username=${username}`)) as { items: { username: string; balance: number }[] };
    found.set(username, page.items.find((item) => item.username === username)!.balance);
  }
  return found;
}

/** Bulk from file… → Deposit → Users, `file` pasted and sent with Ctrl+Enter: the run dialog, showing the preview. */
export async function pasteDepositFile(page: Page, file: string) {
  await openPalette(page);
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type("Bulk from file");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Deposit");
  await expect(palette.getByRole("option", { name: /Deposit/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.type("Users");
  await expect(palette.getByRole("option", { name: /Users/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(palette.getByLabel("CSV file: paste CSV")).toBeFocused();
  await page.keyboard.insertText(file);
  await page.keyboard.press("Control+Enter");
  return page.getByRole("dialog", { name: "Deposit from file" });
}
