/**
 * Issue 29 item 10 through HTTP: every console page carries a strict Content-Security-Policy
 * whose script nonce is new on each answer and is the one every script of that page carries.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { startConsole, type TestConsole } from "./support/console.js";

let app: TestConsole;
let cookie: string;

beforeAll(async () => {
  app = await startConsole();
  const login = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
  cookie = login.headers.get("Set-Cookie")!.split(";")[0]!;
});
afterAll(() => app?.close());

/** A page's policy as directive → sources, its script-src nonce, and the nonce of each of its scripts. */
async function page(path: string) {
  // Signed in, /login would send the operator on to /.
  const response = await app.fetch(path, path === "/login" ? {} : { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  const policy = new Map(
    (response.headers.get("Content-Security-Policy") ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
  const nonce = /^'nonce-([^']+)'$/.exec(policy.get("script-src")?.find((source) => source.startsWith("'nonce-")) ?? "")?.[1];
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => /\bnonce="([^"]*)"/.exec(attributes!)?.[1] ?? null);
  return { policy, nonce, scripts };
}

describe("the console's pages carry a strict Content-Security-Policy", () => {
  it.each(["/login", "/", "/users"])("%s: scripts from the console itself or with this answer's nonce; no plugins, base or foreign framing", async (path) => {
    const { policy, nonce, scripts } = await page(path);
    expect(policy.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts).toEqual(scripts.map(() => nonce));
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
  });

  it("draws a new nonce for every answer", async () => {
    const nonces = await Promise.all([1, 2, 3].map(async () => (await page("/login")).nonce));
    expect(new Set(nonces).size).toBe(3);
  });
});
