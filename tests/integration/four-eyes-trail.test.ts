/**
 * Four-eyes in the audit trail, through the console over HTTP (issue 19, ADR 0009): a credit above
 * the threshold is written as held (its maker and exact request) and not performed; once approved
 * the trail reads held, then performed naming maker and checker; a rejected one reads held, then
 * rejected, and is never performed.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { listPending } from "../../app/lib/store/four-eyes.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { createAdmin, createUser, houseId, placePendingBets, testDb, type TestUser } from "./support/platform.js";

let app: TestConsole;
let admin: string;
let maker: { cookie: string; username: string };
let user: TestUser;

async function signIn(account: { username: string; password: string }): Promise<string> {
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
  expect(response.status).toBe(302);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

/** A route action's answer as a fetcher gets it (single fetch's `.data`, its strings in plain text). */
const post = async (path: "/users" | "/approvals", cookie: string, form: Record<string, string>) => {
  const response = await app.fetch(`${path}.data`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(form) });
  return response.text();
};

/** The trail's entries about this request, oldest first. */
async function trailOf(requestId: string) {
  const entries = await listAudit(app.store, {}, { limit: 200, offset: 0 });
  return entries.filter((entry) => JSON.stringify(entry.request).includes(requestId)).reverse();
}

async function hold(amount: string) {
  const requestId = randomUUID();
  const answer = await post("/users", maker.cookie, { intent: "deposit", user: String(user.id), isPartner: "false", amount, remark: "", requestId });
  expect(answer).toContain("Sent for approval (four-eyes): above 1000");
  const approval = (await listPending(app.store)).find((pending) => JSON.stringify(pending.request).includes(requestId))!;
  return { requestId, approval };
}

beforeAll(async () => {
  app = await startConsole();
  admin = await signIn(DEMO_ACCOUNTS.admin);
  const staff = await createAdmin({ role: 2, permissions: { users: true } });
  maker = { cookie: await signIn(staff), username: staff.username };
  user = await createUser(await houseId());
  await post("/approvals", admin, { intent: "thresholds", transferAbove: "1000", decisionAbove: "", jobItemsAbove: "", jobTotalAbove: "", expiryHours: "24" });
});
afterAll(() => app?.close());

describe("four-eyes in the audit trail", () => {
  it("a held credit is written as held, by its maker, with the exact request, and not performed", async () => {
    const { requestId } = await hold("5000");
    const trail = await trailOf(requestId);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      operator: maker.username,
      call: "userDeposit",
      kind: "money",
      outcome: "held",
      accountId: String(user.id),
      amount: 5000,
      balanceAfter: null,
      request: { user: String(user.id), amount: 5000, requestId },
    });
    expect(trail[0]!.message).toMatch(/^Held for approval \(four-eyes: above 1000\): Deposit 5000/);
  });

  it("approved: held, then performed once by the checker naming the maker", async () => {
    const { requestId, approval } = await hold("2000");
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain("Approved and performed: Deposit 2000");
    const trail = await trailOf(requestId);
    expect(trail.map((entry) => [entry.operator, entry.outcome])).toEqual([
      [maker.username, "held"],
      [DEMO_ACCOUNTS.admin.username, "ok"],
    ]);
    expect(trail[1]!.message).toContain(`four-eyes: made by ${maker.username}, approved by ${DEMO_ACCOUNTS.admin.username}`);
  });

  it("held and approved, both entries name the account by the username the maker's form carried (issue 32)", async () => {
    const requestId = randomUUID();
    const form = { intent: "deposit", user: String(user.id), username: user.username, isPartner: "false", amount: "2500", remark: "", requestId };
    expect(await post("/users", maker.cookie, form)).toContain("Sent for approval (four-eyes): above 1000");
    const approval = (await listPending(app.store)).find((pending) => JSON.stringify(pending.request).includes(requestId))!;
    expect(approval.accountName).toBe(user.username);
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain("Approved and performed: Deposit 2500");
    const trail = await trailOf(requestId);
    expect(trail.map((entry) => [entry.outcome, entry.accountId, entry.accountName])).toEqual([
      ["held", String(user.id), user.username],
      ["ok", String(user.id), user.username],
    ]);
  });

  it("rejected: held, then rejected by the checker, never performed", async () => {
    const { requestId, approval } = await hold("3000");
    expect(await post("/approvals", admin, { intent: "reject", id: approval.id })).toContain("Rejected: Deposit 3000");
    const trail = await trailOf(requestId);
    expect(trail.map((entry) => [entry.operator, entry.call, entry.outcome])).toEqual([
      [maker.username, "userDeposit", "held"],
      [DEMO_ACCOUNTS.admin.username, "fourEyesReject", "ok"],
    ]);
    expect(trail[1]!.message).toContain(`made by ${maker.username}, rejected by ${DEMO_ACCOUNTS.admin.username}`);
  });
});

describe("a settlement job above a job threshold", () => {
  let scope: { eventId: string; marketId: string };
  let items: Array<{ key: string; label: string; requestId: string; payload: unknown }>;
  beforeAll(async () => {
    // The API's own bets: a job is stored only with bets pending there, at their stakes (issue 29).
    const placed = await placePendingBets(app.platform, 3);
    scope = { eventId: placed.eventId, marketId: placed.marketId };
    items = placed.ids.map((_id) => ({ key: _id, label: _id, requestId: _id, payload: { scope, bet: { _id, ...scope, amount: 100 }, status: 1 } }));
  });
  const postJson = (cookie: string, body: unknown) =>
    app.fetch("/resources/jobs", { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });

  /** The trail's settleBet entries of these bets, in the order sent. */
  const sentOnce = async () =>
    (await listAudit(app.store, { call: "settleBet" }, { limit: 500, offset: 0 }))
      .map((entry) => `${(entry.request as { bet: { _id: string } }).bet._id} by ${entry.operator}`)
      .filter((line) => items.some((item) => line.startsWith(`${item.key} by `)))
      .sort();

  it("waits with its exact items; the maker cannot approve it; a checker's approval runs it once, under a stored job", async () => {
    await post("/approvals", admin, { intent: "thresholds", transferAbove: "1000", decisionAbove: "", jobItemsAbove: "2", jobTotalAbove: "", expiryHours: "24" });
    const bettingStaff = await createAdmin({ role: 2, permissions: { bets: true } });
    const jobMaker = await signIn(bettingStaff);
    const started = (await (await postJson(jobMaker, { kind: "settle", title: "Settle market", items })).json()) as { id?: string; held?: string };
    expect(started).toEqual({ ok: true, held: "Sent for approval (four-eyes): more than 2 bets" });

    const approval = (await listPending(app.store)).find((pending) => pending.call === "settleJob")!;
    expect(approval).toMatchObject({ maker: bettingStaff.username, request: { kind: "settle", title: "Settle market", items } });
    const [held] = await listAudit(app.store, { call: "settleJob" }, { limit: 1, offset: 0 });
    expect(held).toMatchObject({ operator: bettingStaff.username, outcome: "held", amount: 300 });
    // Nothing was sent while it waited.
    expect(await sentOnce()).toEqual([]);

    expect(await post("/approvals", jobMaker, { intent: "approve", id: approval.id })).toContain("The maker cannot approve their own request");
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain("Approved and performed: Settle market: 3 bets, stakes 300");
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain("Already approved");

    // Each bet went upstream once, as the checker.
    expect(await sentOnce()).toEqual(items.map((item) => `${item.key} by ${DEMO_ACCOUNTS.admin.username}`));
    const [performed] = await listAudit(app.store, { call: "settleJob", outcome: "ok" }, { limit: 1, offset: 0 });
    expect(performed!.message).toContain(`four-eyes: made by ${bettingStaff.username}, approved by ${DEMO_ACCOUNTS.admin.username}`);
  });

  it("refuses a settlement chunk outside a stored job while a job threshold is on", async () => {
    const response = await app.fetch("/resources/bets/settle", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: admin },
      body: JSON.stringify({ scope, settlements: [{ bet: { _id: "991009", ...scope }, status: 1 }] }),
    });
    expect(await response.json()).toEqual({ ok: true, results: [{ key: "991009", error: "Four-eyes job thresholds are on: settle through a stored job" }] });
  });
});

describe("a bulk credit job above a job threshold", () => {
  const postJob = (cookie: string, body: unknown) =>
    app.fetch("/resources/jobs", { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });
  const balanceOf = async (account: TestUser) =>
    (await (await testDb()).selectFrom("users").select("balance").where("id", "=", account.id).executeTakeFirstOrThrow()).balance;
  /** A Bulk deposit's item as the desk confirms it: the exact form it posts, under its requestId. */
  const itemOf = (account: TestUser, amount: string) => {
    const requestId = randomUUID();
    const form = { intent: "deposit", user: String(account.id), isPartner: "false", amount, remark: "", requestId };
    return { key: String(account.id), label: account.username, requestId, payload: { path: "/users", form } };
  };

  it("waits whole; the maker cannot approve it; a checker's approval credits each account once, as the checker", async () => {
    await post("/approvals", admin, { intent: "thresholds", transferAbove: "", decisionAbove: "", jobItemsAbove: "", jobTotalAbove: "150", expiryHours: "24" });
    const accounts = await Promise.all([1, 2, 3].map(async () => createUser(await houseId())));
    const items = accounts.map((account) => itemOf(account, "100"));
    const started = (await (await postJob(maker.cookie, { kind: "deposit", title: "Bulk deposit", items })).json()) as { held?: string };
    expect(started).toEqual({ ok: true, held: "Sent for approval (four-eyes): total above 150" });
    // Held: nothing moved, and the job is not in the maker's /jobs.
    expect(await Promise.all(accounts.map(balanceOf))).toEqual([0n, 0n, 0n]);
    const approval = (await listPending(app.store)).find((pending) => pending.call === "accountJob")!;
    expect(approval).toMatchObject({ maker: maker.username, summary: "Bulk deposit: 3 accounts, total 300", request: { kind: "deposit", items } });

    expect(await post("/approvals", maker.cookie, { intent: "approve", id: approval.id })).toContain("The maker cannot approve their own request");
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain(
      "Approved and performed: Bulk deposit: 3 accounts, total 300: 3 done, 0 failed",
    );
    expect(await post("/approvals", admin, { intent: "approve", id: approval.id })).toContain("Already approved");
    expect(await Promise.all(accounts.map(balanceOf))).toEqual([10_000n, 10_000n, 10_000n]);

    // Each credit was sent once, by the checker, naming the maker, under one stored job.
    const credits = (await listAudit(app.store, { call: "userDeposit", outcome: "ok" }, { limit: 50, offset: 0 })).filter((entry) =>
      items.some((item) => JSON.stringify(entry.request).includes(item.requestId)),
    );
    expect(credits.map((entry) => entry.operator)).toEqual(items.map(() => DEMO_ACCOUNTS.admin.username));
    expect(new Set(credits.map((entry) => entry.jobId)).size).toBe(1);
    expect(credits.every((entry) => entry.message.includes(`made by ${maker.username}, approved by ${DEMO_ACCOUNTS.admin.username}`))).toBe(true);
    const [performed] = await listAudit(app.store, { call: "accountJob", outcome: "ok" }, { limit: 1, offset: 0 });
    expect(performed).toMatchObject({ operator: DEMO_ACCOUNTS.admin.username, kind: "money" });
  });

  it("refuses a job whose item is not its account's action, whole, and stores nothing", async () => {
    const [account, other] = await Promise.all([1, 2].map(async () => createUser(await houseId())));
    const forged = { ...itemOf(account!, "1"), key: String(other!.id) };
    const response = await postJob(maker.cookie, { kind: "deposit", title: "Bulk deposit", items: [itemOf(account!, "1"), forged] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, message: `Item 2 (${account!.username}) is not a deposit of its account` });
  });

  it("performs a stored job's item only as it was confirmed: a post with another amount is refused and sends nothing", async () => {
    await post("/approvals", admin, { intent: "thresholds", transferAbove: "", decisionAbove: "", jobItemsAbove: "", jobTotalAbove: "150", expiryHours: "24" });
    const account = await createUser(await houseId());
    const item = itemOf(account, "100");
    const { id } = (await (await postJob(maker.cookie, { kind: "deposit", title: "Bulk deposit", items: [item] })).json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await post("/users", maker.cookie, { ...item.payload.form, amount: "5000", jobId: id })).toContain(
      "This item differs from its job as confirmed: not sent",
    );
    // Claimed and answered: the confirmed form is not sent afterwards either.
    expect(await post("/users", maker.cookie, { ...item.payload.form, jobId: id })).toContain("This item differs from its job as confirmed: not sent");
    expect(await balanceOf(account)).toBe(0n);
  });
});
