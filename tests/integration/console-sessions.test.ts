/**
 * Console sessions (issue 30, ADR 0010) through HTTP, on a store two console instances share
 * (PGlite, and PostgreSQL where one is given): a signed-out, ended, idle or expired session is
 * refused by every route, the store's own included (issue 29 item 6), on every instance.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listAudit } from "../../app/lib/store/audit-log.server";
import type { ConsoleStore } from "../../app/lib/store/schema";
import { saveAllowlist } from "../../app/lib/store/sessions.server";
import { consoleStores } from "./support/console-stores";
import { twoConsolesOn, type TestConsole } from "./support/console.js";
import { createAdmin, createUser, houseId } from "./support/platform.js";

const { open, targets } = consoleStores("sessions");

describe.each(targets)("console sessions on %s", (_name, target) => {
  let store: ConsoleStore;
  let one: TestConsole;
  let two: TestConsole;
  // The second is behind a balancer on this host: only it reads X-Forwarded-For.
  twoConsolesOn(async () => open(await target()), (started) => ({ store, one, two } = started), { trustedProxies: ["127.0.0.1"] });

  const postLogin = (app: TestConsole, account: { username: string; password: string }, headers: Record<string, string> = {}) =>
    app.fetch("/session", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify({ intent: "signIn", username: account.username, password: account.password }) });
  async function signIn(app = one, account: { username: string; password: string } = DEMO_ACCOUNTS.admin, headers: Record<string, string> = {}): Promise<string> {
    const response = await postLogin(app, account, headers);
    expect(response.status).toBe(200);
    return response.headers.get("Set-Cookie")!.split(";")[0]!;
  }
  const addressOf = async (operator: string) =>
    (await store.selectFrom("console_sessions").select("address").where("operator", "=", operator).orderBy("created_at", "desc").executeTakeFirstOrThrow()).address;
  const signOut = (cookie: string, app = one) =>
    app.fetch("/session", { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ intent: "signOut" }) });
  /** A screen's own loader alone, as the browser asks for it on a client navigation (no layout loader calling the API). */
  const screenData = (screen: string, cookie: string, app = one) =>
    app.fetch(`/${screen}.data?_routes=${encodeURIComponent(`routes/_app.${screen}`)}`, { headers: { Cookie: cookie } });
  const jobsData = (cookie: string, app = one) => screenData("jobs", cookie, app);
  const postJson = (path: string, body: unknown, cookie: string, app = one) =>
    app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });
  /** Answered with the sign-in screen: a redirect to /login, as a page, a single-fetch .data request or a resource route sends it. */
  async function signedOut(response: Response): Promise<boolean> {
    const location = response.headers.get("Location") ?? response.headers.get("X-Remix-Redirect") ?? "";
    const body = response.status === 202 || response.status === 204 ? await response.text() : "";
    return location.startsWith("/login") || /"redirect","\/login/.test(body) || /\/login/.test(body);
  }
  const sessionIdOf = async (operator: string) =>
    (await store.selectFrom("console_sessions").select("id").where("operator", "=", operator).orderBy("created_at", "desc").executeTakeFirstOrThrow()).id;

  it("refuses a signed-out cookie replayed to every store route: jobs, the audit trail, four-eyes, a file's preview and result (issues 29 item 6, 34)", async () => {
    const cookie = await signIn();
    const account = await createUser(await houseId());
    const requestId = randomUUID();
    const form = { intent: "deposit", user: String(account.id), isPartner: "false", amount: "100", remark: "", requestId };
    const job = { kind: "deposit", title: "Bulk deposit", items: [{ key: String(account.id), label: account.username, requestId, payload: { path: "/users", form } }] };
    const stored = (await (await postJson("/resources/jobs", job, cookie)).json()) as { id: string };
    expect(stored.id).toEqual(expect.any(String));
    expect((await jobsData(cookie)).status).toBe(200);
    expect(await signOut(cookie)).toMatchObject({ status: 200 });

    const jobsBefore = await store.selectFrom("console_jobs").select("id").execute();
    const replays: Array<[string, Promise<Response>]> = [
      ["GET /jobs.data", jobsData(cookie)],
      ["POST /resources/jobs", postJson("/resources/jobs", job, cookie)],
      ["POST /resources/jobs/:id/resume", postJson(`/resources/jobs/${stored.id}/resume`, {}, cookie)],
      ["GET /audit.data", screenData("audit", cookie)],
      ["GET /approvals.data", screenData("approvals", cookie)],
      ["GET /sessions.data", screenData("sessions", cookie)],
      ["GET /resources/audit/search", one.fetch("/resources/audit/search?q=admin", { headers: { Cookie: cookie } })],
      ["GET /resources/audit/download", one.fetch("/resources/audit/download", { headers: { Cookie: cookie } })],
      ["POST /resources/bulk-file/preview", postJson("/resources/bulk-file/preview", { command: "deposit", desk: "users", content: `username,amount\n${account.username},5`, encoding: "text" }, cookie)],
      ["GET /resources/jobs/:id/result", one.fetch(`/resources/jobs/${stored.id}/result`, { headers: { Cookie: cookie } })],
    ];
    for (const [route, replay] of replays) {
      const response = await replay;
      expect({ route, refused: await signedOut(response) }).toEqual({ route, refused: true });
    }
    // Nothing was stored or sent for the replayed job.
    expect(await store.selectFrom("console_jobs").select("id").execute()).toEqual(jobsBefore);
  });

  it("refuses on one instance a session ended through the other, and records who ended it", async () => {
    const cookie = await signIn(one);
    expect((await jobsData(cookie, two)).status).toBe(200);
    const id = await sessionIdOf(DEMO_ACCOUNTS.admin.username);
    const other = await signIn(one);
    const ended = await one.fetch("/sessions", { method: "POST", headers: { Cookie: other }, body: new URLSearchParams({ intent: "end", id }) });
    expect(ended.status).toBe(200);
    expect(await signedOut(await jobsData(cookie, two))).toBe(true);
    expect((await jobsData(other, two)).status).toBe(200);
    const [entry] = await listAudit(store, { call: "sessionEnded" }, { limit: 1, offset: 0 });
    expect(entry).toMatchObject({ operator: DEMO_ACCOUNTS.admin.username, session: id, message: expect.stringContaining("ended by admin") });
  });

  it("ends a session idle past the timeout, and one past its lifetime however busy", async () => {
    const idle = await signIn();
    const idleId = await sessionIdOf(DEMO_ACCOUNTS.admin.username);
    const busy = await signIn();
    const busyId = await sessionIdOf(DEMO_ACCOUNTS.admin.username);
    await store.updateTable("console_sessions").set({ last_seen_at: sql<Date>`now() - interval '31 minutes'` }).where("id", "=", idleId).execute();
    await sql`update console_sessions set created_at = now() - interval '12 hours 1 minute' where id = ${busyId}`.execute(store);
    expect(await signedOut(await jobsData(idle, two))).toBe(true);
    expect(await signedOut(await jobsData(busy, two))).toBe(true);
    const reasons = await store.selectFrom("console_sessions").select(["id", "ended_reason"]).where("id", "in", [idleId, busyId]).orderBy("id").execute();
    expect(Object.fromEntries(reasons.map((row) => [row.id, row.ended_reason]))).toEqual({ [idleId]: "idle timeout", [busyId]: "lifetime over" });
  });

  it("keeps the upstream token sealed at rest: the store holds neither it nor the cookie's secret", async () => {
    const cookie = await signIn();
    const row = await store.selectFrom("console_sessions").selectAll().where("id", "=", await sessionIdOf(DEMO_ACCOUNTS.admin.username)).executeTakeFirstOrThrow();
    expect(row.upstream).not.toMatch(/^ey|\./);
    expect(JSON.stringify(row)).not.toContain(decodeURIComponent(cookie.split("=")[1]!));
  });

  it("ends the operator's other sessions when the password is changed, keeping this one", async () => {
    const staff = await createAdmin({ role: 2, permissions: {} });
    const [kept, other] = [await signIn(one, staff), await signIn(two, staff)];
    const changed = await one.fetch("/change-password", {
      method: "POST",
      headers: { Cookie: kept },
      body: new URLSearchParams({ curPassword: staff.password, password: "fresh-pass-1", confirmPassword: "fresh-pass-1" }),
    });
    expect(changed.status).toBe(200);
    expect(await signedOut(await screenData("sessions", other))).toBe(true);
    expect(await signedOut(await screenData("sessions", kept))).toBe(false);
  });

  it("takes the address from X-Forwarded-For only from a trusted proxy: a forged one changes nothing", async () => {
    const staff = await createAdmin({ role: 2, permissions: {} });
    await signIn(one, staff, { "X-Forwarded-For": "203.0.113.7" });
    expect(await addressOf(staff.username)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    await signIn(two, staff, { "X-Forwarded-For": "203.0.113.7" });
    expect(await addressOf(staff.username)).toBe("203.0.113.7");
  });

  it("refuses a sign-in from outside the allowlist before the password goes upstream, and records it", async () => {
    const staff = await createAdmin({ role: 2, permissions: {} });
    await signIn(one, staff);
    await saveAllowlist(store, new Map([[2, ["10.0.0.0/8", "2001:db8::/32"]]]));
    try {
      const sent = one.upstream.length;
      const refused = await postLogin(one, staff);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ ok: false, message: expect.stringMatching(/^Sign-in refused: your address \S+ is not on the allowlist for staff$/) });
      expect(one.upstream.slice(sent)).toEqual([]);
      // A forged header from an untrusted peer does not get in; the trusted balancer's does.
      expect((await postLogin(one, staff, { "X-Forwarded-For": "10.1.2.3" })).status).toBe(403);
      expect((await postLogin(two, staff, { "X-Forwarded-For": "10.1.2.3" })).status).toBe(200);
      const [entry] = await listAudit(store, { call: "signIn", operator: staff.username, outcome: "refused" }, { limit: 1, offset: 0 });
      expect(entry).toMatchObject({ outcome: "refused", status: 403, message: expect.stringContaining("not on the allowlist") });
    } finally {
      await saveAllowlist(store, new Map());
    }
  });

  it("will not save an allowlist that shuts the super admin out from where they are", async () => {
    const cookie = await signIn();
    const save = (role1: string) =>
      one.fetch("/sessions", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams({ intent: "allowlist", role1, role2: "", role3: "" }) });
    // The action's outcome comes back inside the page, as a form posted without JavaScript gets it.
    const shut = await save("10.0.0.0/8");
    expect(shut.status).toBe(400);
    expect(await shut.text()).toContain("Not saved: your own address");
    const nonsense = await save("not-a-range");
    expect(nonsense.status).toBe(400);
    expect(await nonsense.text()).toContain("not-a-range is not an address or CIDR range (super admin)");
    const saved = await save("127.0.0.0/8\n::1");
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Address allowlist saved");
    const [entry] = await listAudit(store, { call: "allowlist" }, { limit: 1, offset: 0 });
    expect(entry).toMatchObject({ operator: DEMO_ACCOUNTS.admin.username, kind: "settings", request: { 1: ["127.0.0.0/8", "::1"], 2: [], 3: [] } });
    await saveAllowlist(store, new Map());
  });
});
