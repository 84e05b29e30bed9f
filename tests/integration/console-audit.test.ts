/**
 * The audit trail through the console over HTTP (ADR 0009): a deposit made in the console is one
 * entry naming the maker, the amount, the account and the platform's answer; a password change
 * records no password; /audit and the palette's `!` find an account's entries by its username,
 * and staff without `report` are refused.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { todayIn } from "../../app/lib/bets.server";
import { DEFAULT_TIME_ZONE } from "../../app/lib/constants";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { call, createAdmin, createPlayer, createUser, houseId, type TestUser } from "./support/platform.js";

let app: TestConsole;
let admin: string;
let user: TestUser;

async function signIn(account: { username: string; password: string }): Promise<string> {
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
  expect(response.status).toBe(302);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

const post = (path: string, cookie: string, form: Record<string, string>) =>
  app.fetch(path, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(form) });

const entriesOf = async (call: string) => (await listAudit(app.store, { call }, { limit: 100, offset: 0 })).filter((entry) => entry.accountId === String(user.id));

beforeAll(async () => {
  app = await startConsole();
  admin = await signIn(DEMO_ACCOUNTS.admin);
  user = await createUser(await houseId());
});
afterAll(() => app?.close());

describe("the audit trail through the console", () => {
  it("records the sign-in", async () => {
    const [entry] = await listAudit(app.store, { call: "signIn", operator: DEMO_ACCOUNTS.admin.username }, { limit: 1, offset: 0 });
    expect(entry).toMatchObject({ outcome: "ok", operatorRole: 1, session: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("records a deposit once: maker, amount, account, balances and the platform's answer", async () => {
    const requestId = randomUUID();
    const response = await post("/users", admin, { intent: "deposit", user: String(user.id), isPartner: "false", amount: "150.50", remark: "audited", requestId });
    expect(response.status).toBe(200);
    const entries = await entriesOf("userDeposit");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: DEMO_ACCOUNTS.admin.username,
      operatorRole: 1,
      kind: "money",
      amount: 150.5,
      balanceBefore: 0,
      balanceAfter: 150.5,
      outcome: "ok",
      status: 200,
      request: { user: String(user.id), amount: 150.5, remark: "audited", requestId, isPartner: false },
      answer: { balance: 150.5 },
    });
    expect(entries[0]!.message).not.toBe("");
  });

  it("records a refused withdrawal as refused, with the platform's message", async () => {
    await post("/users", admin, { intent: "withdraw", user: String(user.id), isPartner: "false", amount: "99999", requestId: randomUUID() });
    const [entry] = await entriesOf("userWithdraw");
    expect(entry).toMatchObject({ outcome: "refused", amount: 99999, balanceAfter: null });
    expect(entry!.status).toBeGreaterThanOrEqual(400);
    expect(entry!.status).toBeLessThan(500);
    expect(entry!.message).toMatch(/balance/i);
  });

  it("records a password change without the password", async () => {
    const password = `Secret-${randomUUID().slice(0, 8)}`;
    await post("/users", admin, { intent: "password", user: String(user.id), isPartner: "false", password, confirmPassword: password });
    const entries = await entriesOf("changeUserPassword");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "password", outcome: "ok", request: { password: "[redacted]" } });
    expect(JSON.stringify(entries[0], (_key, value) => (typeof value === "bigint" ? String(value) : value))).not.toContain(password);
  });

  it("finds an account's entries by its username on /audit, in the palette and in the CSV", async () => {
    const page = await app.fetch(`/audit?${new URLSearchParams({ account: user.username })}`, { headers: { Cookie: admin } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Deposit");
    const search = await app.fetch(`/resources/audit/search?q=${user.username}`, { headers: { Cookie: admin } });
    const { hits } = (await search.json()) as { hits: Array<{ label: string }> };
    expect(hits.map((hit) => hit.label).sort()).toEqual(["Change user password", "Deposit", "Withdraw"]);
    const csv = await app.fetch(`/resources/audit/download?${new URLSearchParams({ account: user.username, call: "userDeposit" })}`, { headers: { Cookie: admin } });
    const lines = (await csv.text()).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("150.5");
  });

  it("filters by days in the console's time zone", async () => {
    const today = todayIn(process.env.TIME_ZONE ?? DEFAULT_TIME_ZONE);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const count = async (range: Record<string, string>) => {
      const csv = await app.fetch(`/resources/audit/download?${new URLSearchParams({ account: user.username, call: "userDeposit", ...range })}`, { headers: { Cookie: admin } });
      return (await csv.text()).trim().split("\n").length - 1;
    };
    expect(await count({ from: today, to: today })).toBe(1);
    expect(await count({ to: yesterday })).toBe(0);
    expect(await count({ from: yesterday })).toBe(1);
  });

  it("records the username a deposit's form carries beside the id, and finds the deposit by it (issue 32)", async () => {
    const named = await createUser(await houseId());
    const form = { intent: "deposit", user: String(named.id), username: named.username, isPartner: "false", amount: "12.34", requestId: randomUUID() };
    expect((await post("/users", admin, form)).status).toBe(200);
    const [entry] = await listAudit(app.store, { call: "userDeposit", account: { name: named.username, ids: [] } }, { limit: 10, offset: 0 });
    expect(entry).toMatchObject({ accountId: String(named.id), accountName: named.username, amount: 12.34, outcome: "ok" });

    const search = await app.fetch(`/resources/audit/search?q=${named.username}`, { headers: { Cookie: admin } });
    const { hits } = (await search.json()) as { hits: Array<{ label: string; accountName: string | null; amount: number | null }> };
    expect(hits).toEqual([expect.objectContaining({ label: "Deposit", accountName: named.username, amount: 12.34 })]);

    const csv = await app.fetch(`/resources/audit/download?${new URLSearchParams({ account: named.username })}`, { headers: { Cookie: admin } });
    const [header, line] = (await csv.text()).trim().split("\n");
    expect(header).toContain("label,call,kind,accountId,accountName,subject,amount");
    expect(line).toContain(`Deposit,userDeposit,money,${named.id},${named.username},,12.34`);
  });

  it("a decision names the request's account, as the approval dialog posts it (issue 32)", async () => {
    const player = await createPlayer(app.platform, await houseId());
    const reply = await call<{ _id: string }>(app.platform, "POST", "/api/user/deposit-request", { token: player.token, body: { utr: "UTR-AUDIT", amount: 250, type: 0 } });
    const id = reply.data!._id;
    const decision = { intent: "decide", id, username: player.username, decision: "1", usdt: "false", mainInrBonus: "", mainPrnBonus: "", inrBonus: "", prnBonus: "", inr: "", remark: "" };
    expect((await post("/deposits", admin, decision)).status).toBe(200);
    const [entry] = await listAudit(app.store, { call: "updateDeposit", account: { name: player.username, ids: [] } }, { limit: 10, offset: 0 });
    expect(entry).toMatchObject({ kind: "decision", accountName: player.username, outcome: "ok", request: { _id: id, status: 1 } });
    const search = await app.fetch(`/resources/audit/search?q=${player.username}`, { headers: { Cookie: admin } });
    const { hits } = (await search.json()) as { hits: Array<{ label: string; subject: string | null }> };
    expect(hits).toEqual([expect.objectContaining({ label: "Approve deposit request", subject: `Request ${id}` })]);
  });

  it("a label that is not a short single line is dropped, never refusing the action", async () => {
    const named = await createUser(await houseId());
    const form = { intent: "deposit", user: String(named.id), username: "x".repeat(65), isPartner: "false", amount: "1", requestId: randomUUID() };
    expect((await post("/users", admin, form)).status).toBe(200);
    const [entry] = await listAudit(app.store, { call: "userDeposit", account: { name: String(named.id), ids: [] } }, { limit: 10, offset: 0 });
    expect(entry).toMatchObject({ accountId: String(named.id), accountName: null, outcome: "ok" });
  });

  it("is refused to staff without report", async () => {
    const staff = await signIn(await createAdmin({ role: 2, permissions: { users: true } }));
    const search = await app.fetch("/resources/audit/search?q=admin", { headers: { Cookie: staff } });
    expect(await search.json()).toEqual({ hits: [], message: "Permission denied" });
    expect((await app.fetch("/audit", { headers: { Cookie: staff } })).status).toBe(403);
    expect((await app.fetch("/resources/audit/download", { headers: { Cookie: staff } })).status).toBe(403);
  });
});
