/**
 * The second factor (issue 30), keyboard only: a staff member enrols an authenticator app with a
 * code computed from the key shown, signs out and in with a code, a replayed code is refused, a
 * recovery code works once; a passkey registered and used through Chromium's virtual
 * authenticator; the super admin is asked for a factor before a threshold change and the save
 * goes on. A fresh operator each run, so the other scenarios' sign-ins are untouched.
 */
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { adminApi, collectErrors, consoleUrl, expect, runCommand, signedInHeading, signIn, SPEC_API, submitLogin, test } from "./fixtures";

const STEP_MS = 30_000;
const codeOf = (key: string, at = Date.now()) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(key) }).generate({ timestamp: at });

async function newStaff(): Promise<{ username: string; password: string }> {
  const account = { username: `mfa${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`, password: "mfa-pass-123" };
  const api = await adminApi();
  await api.post("/b2c/add-admin", { ...account, permissions: { deposits: true } });
  return account;
}

/** From the palette: Set up second factor…, `t`, the code of the key shown; answers the key and the recovery codes. */
async function enrolAuthenticator(page: Page): Promise<{ key: string; codes: string[] }> {
  await runCommand(page, "Set up second factor");
  await expect(page).toHaveURL(/\/second-factor$/);
  await page.keyboard.press("t");
  const key = (await page.getByTestId("totp-key").textContent())!.trim();
  await expect(page.getByLabel("Code from the app")).toBeFocused();
  await page.keyboard.type(codeOf(key));
  await page.keyboard.press("Enter");
  const list = page.getByRole("region", { name: "Recovery codes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const codes = (await list.getByRole("listitem").allTextContents()).map((code) => code.trim());
  await page.keyboard.press("Enter");
  return { key, codes };
}

async function signOut(page: Page) {
  await runCommand(page, "Logout");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel("Username")).toBeVisible();
}

/**
 * The password, then the second step's code field (focused) with `code`. `unhydrated`: the page's
 * scripts never arrive, so the load the sign-in page waits for is only its first byte.
 */
async function signInWithCode(page: Page, account: { username: string; password: string }, code: string, unhydrated = false) {
  if (unhydrated) {
    await page.goto("/login", { waitUntil: "commit" });
    await page.getByLabel("Username").fill(account.username);
    await page.getByLabel("Password").fill(account.password);
    await page.getByLabel("Password").press("Enter");
  } else await submitLogin(page, account);
  await expect(page.getByLabel("Code from your authenticator app")).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.dataset.codeKeysHeld), "keys held as the code's field showed").toBeUndefined();
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
}

/**
 * Marks the page (`data-code-keys-held`) if the code's field is ever shown while the sign-in still holds the keys
 * (app/lib/key-buffer.ts): a code typed then was held, and its Enter, replayed, submitted nothing. signInWithCode checks it.
 */
const watchCodeKeysHeld = (page: Page) =>
  page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector("form[aria-label='Second factor'] input[name=code]") && window.betdeskKeys?.holds.includes("sign-in")) {
        document.documentElement.dataset.codeKeysHeld = "seen";
      }
    }).observe(document, { subtree: true, childList: true });
  });

/** The next step's code (one step of drift ahead is accepted): later than the step enrolment used, so never a replay of it. */
const nextCode = (key: string) => codeOf(key, Date.now() + STEP_MS);

test("enrol an authenticator app, sign in with a code, a replay refused, a recovery code once", SPEC_API, async ({ page }) => {
  const account = await newStaff();
  await signIn(page, account);
  const { key, codes } = await enrolAuthenticator(page);
  await signOut(page);

  await watchCodeKeysHeld(page);
  const used = nextCode(key);
  await signInWithCode(page, account, used);
  await expect(signedInHeading(page, account.username)).toBeVisible();
  await signOut(page);

  // The same code again, inside its window.
  await signInWithCode(page, account, used);
  await expect(page.getByRole("alert")).toContainText("used already");

  // Alt+R: a recovery code instead, once.
  await submitLogin(page, account);
  await page.getByLabel("Code from your authenticator app").waitFor();
  await page.keyboard.press("Alt+r");
  await expect(page.getByLabel("Recovery code")).toBeFocused();
  await page.keyboard.type(codes[0]!);
  await page.keyboard.press("Enter");
  await expect(signedInHeading(page, account.username)).toBeVisible();
  await signOut(page);
  await submitLogin(page, account);
  await page.getByLabel("Code from your authenticator app").waitFor();
  await page.keyboard.press("Alt+r");
  await page.keyboard.type(codes[0]!);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toContainText("recovery code is not right");
});

test("a code typed and sent before the page hydrated posts as a plain form: refused with its reason, then signed in", SPEC_API, async ({ page, browser }) => {
  const account = await newStaff();
  await signIn(page, account);
  const { key } = await enrolAuthenticator(page);
  // Another browser whose scripts never arrive: the head's key buffer runs, the page never hydrates.
  const early = await (await browser.newContext({ baseURL: consoleUrl() })).newPage();
  const errors: string[] = [];
  collectErrors(early, errors);
  await early.route("**/assets/*.js", () => undefined);

  const valid = new Set([-1, 0, 1].map((steps) => codeOf(key, Date.now() + steps * STEP_MS)));
  const wrong = ["000000", "111111", "222222", "333333"].find((code) => !valid.has(code))!;
  await signInWithCode(early, account, wrong, true);
  await expect(early.getByRole("alert")).toHaveText("That code is not right");
  await expect(early).toHaveURL(/step=second-factor/);

  await expect(early.getByLabel("Code from your authenticator app")).toBeFocused();
  await early.keyboard.type(nextCode(key));
  await early.keyboard.press("Enter");
  await expect(signedInHeading(early, account.username)).toBeVisible();
  expect(errors).toEqual([]);
});

test("register a passkey and sign in with it (Chromium's virtual authenticator)", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const account = await newStaff();
  await signIn(page, account);
  await runCommand(page, "Set up second factor");
  await expect(page).toHaveURL(/\/second-factor$/);
  await page.keyboard.press("k");
  await expect(page.getByLabel("Passkey name")).toBeFocused();
  await page.keyboard.type("laptop");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("table", { name: "Passkeys" })).toContainText("laptop");
  await signOut(page);

  await submitLogin(page, account);
  await page.getByLabel("Recovery code").waitFor();
  await page.keyboard.press("Alt+p");
  await expect(signedInHeading(page, account.username)).toBeVisible();
});

test("a threshold change asks for the second factor in place, then saves", async ({ page, browser }) => {
  const admin = { username: "admin", password: "admin123" };
  // This session signs in with the password alone; the factor is added from another (whose code counts as given there).
  await signIn(page, admin);
  const other = await browser.newPage({ baseURL: consoleUrl() });
  await signIn(other, admin);
  const { key } = await enrolAuthenticator(other);
  await other.close();
  try {
    await page.keyboard.press("g");
    await page.keyboard.press("Shift+E");
    const form = page.getByRole("form", { name: "Four-eyes thresholds" });
    await form.getByLabel("Expire after (hours)").focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("24");
    await page.keyboard.press("Enter");
    const prompt = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(prompt.getByLabel("Code from your authenticator app")).toBeFocused();
    await page.keyboard.type(nextCode(key));
    await page.keyboard.press("Enter");
    await expect(page.getByText("Four-eyes thresholds saved")).toBeVisible();
    await expect(prompt).toBeHidden();
    await expect(page).toHaveURL(/\/approvals$/);
  } finally {
    // The demo admin signs in with the password alone again for the other scenarios.
    await runCommand(page, "Reset second factor");
    await page.keyboard.type("admin");
    await page.keyboard.press("Enter");
    await page.keyboard.press("y");
    await expect(page.getByText("Second factor of admin reset")).toBeVisible();
  }
});
