import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/node";

const callApi = vi.fn();
vi.mock("./api.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./api.server")>()),
  callApi: (...args: unknown[]) => callApi(...args),
}));
const { openConsoleStore } = await import("./store/open.server");
const { listAudit } = await import("./store/audit-log.server");

const { ApiError } = await import("./api.server");
const { checkSession, signIn, signOut } = await import("./session-flow.server");
const { beginSession, readSession } = await import("./session.server");

const store = await openConsoleStore({ kind: "pglite", dataDir: null });
const context: AppLoadContext = { clientIp: "10.1.2.3", store };
/** The newest audit entry. */
const lastEntry = async () => (await listAudit(store, {}, { limit: 1, offset: 0 }))[0];
async function requestWithSession() {
  const started = await beginSession(new Request("http://console.test/session"), context, { token: "tok", udid: "udid-1", username: "admin", role: 1, factor: "password" });
  return new Request("http://console.test/session", { headers: { Cookie: started.split(";")[0]! } });
}
const clearsCookie = (response: Response) => /Max-Age=0/.test(response.headers.get("Set-Cookie") ?? "");

beforeEach(() => callApi.mockReset());

describe("the logout check", () => {
  it("is ended without a session cookie, asking nobody", async () => {
    const response = await checkSession(new Request("http://console.test/session"), context);
    expect(await response.json()).toEqual({ state: "ended" });
    expect(callApi).not.toHaveBeenCalled();
  });

  it("asks is-logouted for this sign-in's udid and stays active on false", async () => {
    callApi.mockResolvedValueOnce(false);
    const response = await checkSession(await requestWithSession(), context);
    expect(await response.json()).toEqual({ state: "active" });
    expect(callApi).toHaveBeenCalledWith("isLogouted", { udid: "udid-1" }, expect.objectContaining({ token: "tok" }));
  });

  it("ends the session and clears the cookie when the check answers true", async () => {
    callApi.mockResolvedValueOnce(true);
    const response = await checkSession(await requestWithSession(), context);
    expect(await response.json()).toEqual({ state: "ended" });
    expect(clearsCookie(response)).toBe(true);
  });

  it("ends the session when the platform answers Admin not found", async () => {
    callApi.mockRejectedValueOnce(new ApiError("Admin not found", 401));
    const response = await checkSession(await requestWithSession(), context);
    expect(await response.json()).toEqual({ state: "ended" });
    expect(clearsCookie(response)).toBe(true);
  });

  it("keeps the session when the platform cannot be reached", async () => {
    callApi.mockRejectedValueOnce(new ApiError("Something went wrong", null));
    const response = await checkSession(await requestWithSession(), context);
    expect(response.status).toBe(503);
    expect(clearsCookie(response)).toBe(false);
  });
});

describe("sign-in", () => {
  const post = (body: unknown) => signIn(new Request("http://console.test/session", { method: "POST" }), context, body);

  it("refuses an empty form without calling the platform", async () => {
    const response = await post({ intent: "signIn", username: "", password: "x" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, message: "Username is required" });
    expect(callApi).not.toHaveBeenCalled();
  });

  it("passes the server's message and status through, setting no cookie", async () => {
    callApi.mockRejectedValueOnce(new ApiError("Invalid username or password", 401));
    const response = await post({ intent: "signIn", username: "admin", password: "bad" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ ok: false, message: "Invalid username or password" });
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await lastEntry()).toMatchObject({ call: "signIn", operator: "admin", outcome: "refused", status: 401, message: "Invalid username or password", request: null });
  });

  it.each([
    ["an upstream 500", 500],
    ["an unreadable success", 200],
    ["no answer", null],
  ])("answers %s as 502, never as the upstream's own status", async (_case, status) => {
    callApi.mockRejectedValueOnce(new ApiError("Something went wrong", status));
    const response = await post({ intent: "signIn", username: "admin", password: "pw" });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ ok: false, message: "Something went wrong" });
  });

  it("stores the token in an encrypted cookie and vets where to go next", async () => {
    callApi.mockResolvedValueOnce({ token: "secret-token" }).mockResolvedValueOnce({ udid: "u-9", username: "admin", role: 1 });
    const response = await post({ intent: "signIn", username: "admin", password: "pw", redirectTo: "//evil.example" });
    expect(await response.json()).toEqual({ ok: true, redirectTo: "/" });
    const cookie = response.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toContain("secret-token");
    expect(Buffer.from(decodeURIComponent(cookie.split(";")[0]!.split("=")[1]!), "base64").toString()).not.toContain(
      "secret-token",
    );
    expect(callApi).toHaveBeenNthCalledWith(1, "login", { username: "admin", password: "pw" }, expect.objectContaining({ clientIp: "10.1.2.3" }));
    const entry = await lastEntry();
    expect(entry).toMatchObject({ call: "signIn", operator: "admin", operatorRole: 1, outcome: "ok", session: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(JSON.stringify(entry, (_key, value) => (typeof value === "bigint" ? String(value) : value))).not.toMatch(/secret-token|"pw"/);
  });
});

describe("sign-out", () => {
  it("ends the session here when the API has no /logout, and does not ask it again", async () => {
    callApi.mockRejectedValueOnce(new ApiError("Not found", 404));
    for (let time = 0; time < 2; time++) {
      const response = await signOut(await requestWithSession(), context);
      expect(await response.json()).toEqual({ ok: true });
      expect(clearsCookie(response)).toBe(true);
    }
    expect(callApi).toHaveBeenCalledTimes(1);
    expect(callApi).toHaveBeenCalledWith("logout", {}, expect.objectContaining({ token: "tok" }));
    expect(await lastEntry()).toMatchObject({ call: "signOut", operator: "admin", outcome: "ok", message: "Session ended: signed out" });
  });

  it("ends the session for good: its cookie replayed is signed out", async () => {
    const signedIn = await requestWithSession();
    await signOut(signedIn, context);
    const replayed = new Request("http://console.test/jobs.data", { headers: { Cookie: signedIn.headers.get("Cookie")! } });
    expect(await readSession(replayed, context)).toBeNull();
    expect(await (await checkSession(replayed, context)).json()).toEqual({ state: "ended" });
  });
});
