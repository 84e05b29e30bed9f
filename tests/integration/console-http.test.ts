/**
 * Issue 15 items 5–8, console side, through HTTP: hostile sign-in targets, bodies an action
 * cannot read, malformed URLs, and upstream refusals keep their class.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { startConsole, type TestConsole } from "./support/console.js";
import { createAdmin } from "./support/platform.js";

let app: TestConsole;
let admin: string;

beforeAll(async () => {
  app = await startConsole();
  admin = await signIn(DEMO_ACCOUNTS.admin);
});
afterAll(() => app?.close());

/** The login form posted as a browser without JavaScript posts it; answers the 302. */
function postLogin(account: { username: string; password: string }, redirectTo: string) {
  return app.fetch(`/login?redirectTo=${encodeURIComponent(redirectTo)}`, {
    method: "POST",
    body: new URLSearchParams({ ...account, redirectTo }),
  });
}

async function signIn(account: { username: string; password: string }): Promise<string> {
  const response = await postLogin(account, "/");
  expect(response.status).toBe(302);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

const SECRET_LEAK = /node_modules|\bat \w+ \(|\/work\/|URIError/;

describe("sign-in goes only to the console's own paths (item 5)", () => {
  it.each([
    "/\t/evil.example/phish",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\u3000/evil.example",
    "/\\evil.example",
    "//evil.example",
    "https://evil.example/",
  ])("a plain form POST with redirectTo %j lands on /", async (redirectTo) => {
    const response = await postLogin(DEMO_ACCOUNTS.admin, redirectTo);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("still goes where it was headed", async () => {
    const response = await postLogin(DEMO_ACCOUNTS.admin, "/users/bets?user=1");
    expect(response.headers.get("Location")).toBe("/users/bets?user=1");
  });
});

describe("a body an action cannot read is a 400 that says so (item 6)", () => {
  it.each([
    ["JSON", "application/json", JSON.stringify({ username: "admin", password: "admin123" })],
    ["a multipart body without its boundary", "multipart/form-data", "garbage"],
  ])("/login refuses %s", async (_case, type, body) => {
    const response = await app.fetch("/login", { method: "POST", headers: { "Content-Type": type }, body });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The request body is not a form");
  });

  it("/session refuses a body that is not JSON", async () => {
    const response = await app.fetch("/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{bad" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The request body is not valid JSON");
  });

  it.each(["/telegram?index", "/bank-details", "/coupons", "/admins", "/slider"])("%s refuses JSON {bad", async (path) => {
    const response = await app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: admin }, body: "{bad" });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/The request body is not (a form|valid JSON)/);
  });
});

describe("a malformed URL is a short 400, never a stack (item 7)", () => {
  it.each(["/%", "/resources/slider/%E0%A4%A"])("GET %s", async (path) => {
    const response = await app.fetch(path, { headers: { Cookie: admin } });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toBe("Malformed URL");
    expect(text).not.toMatch(SECRET_LEAK);
  });
});

describe("an upstream refusal keeps its class (item 8)", () => {
  it("the platform's 400 on /users/bets?user=abc is a 400 with its message", async () => {
    const response = await app.fetch("/users/bets?user=abc", { headers: { Cookie: admin } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("user: Invalid id");
  });

  it("a receipt name the platform refuses is its 400, one it does not hold its 404", async () => {
    const refused = await app.fetch("/resources/uploads/x.png", { headers: { Cookie: admin } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("name: Invalid image name");
    const missing = await app.fetch(`/resources/uploads/${"0".repeat(32)}.png`, { headers: { Cookie: admin } });
    expect(missing.status).toBe(404);
  });

  it("a settlement chunk where every bet was refused Permission denied is a 403", async () => {
    const staff = await signIn(await createAdmin({ role: 2, permissions: {} }));
    const bet = { _id: "1", eventId: "e1", marketId: "m1" };
    const response = await app.fetch("/resources/bets/settle", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: staff },
      body: JSON.stringify({ scope: {}, settlements: [{ bet, status: 1 }] }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, message: "Permission denied" });
  });
});
