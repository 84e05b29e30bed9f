/**
 * The users desk's bulk jobs over the console's HTTP (issue 19, ADR 0009; its store in memory):
 * an item of a stored job posted twice moves the money once, and a resume checks a switch that
 * was in flight by reading the account's flag: already as asked, it is answered done, else it is
 * reopened to be sent again; a deposit in flight stays unknown (never sent again on a guess). The
 * job route (issue 34) performs a chunk's stored items once each, whatever the browser names, and
 * only for the job's maker.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { MESSAGES } from "../../app/lib/constants";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { claimItems } from "../../app/lib/store/jobs.server";
import { ACCOUNT_JOB_CHUNK_ENDPOINT, ACCOUNT_JOB_CHUNK_MAX } from "../../app/lib/account-jobs";
import { UNKNOWN_OUTCOME } from "../../app/machines/bulk.machine";
import { signInTo, startConsole, type TestConsole } from "./support/console.js";
import { createAdmin, createUser, houseId, type TestUser } from "./support/platform.js";

let app: TestConsole;
let admin: string;
let user: TestUser;

beforeAll(async () => {
  app = await startConsole();
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
  admin = response.headers.get("Set-Cookie")!.split(";")[0]!;
  user = await createUser(await houseId());
});
afterAll(() => app?.close());

const json = (path: string, body?: unknown) =>
  app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: admin }, body: body === undefined ? undefined : JSON.stringify(body) });
/** The desk's action as a fetcher posts it (single fetch's `.data`, its strings in plain text). */
const desk = async (form: Record<string, string>) =>
  (await app.fetch("/users.data", { method: "POST", headers: { Cookie: admin }, body: new URLSearchParams(form) })).text();

async function storeJob(kind: string, ...forms: Array<Record<string, string>>) {
  const items = forms.map((form) => ({ key: form.user!, label: form.user!, requestId: form.requestId ?? randomUUID(), payload: { path: "/users", form } }));
  const answer = (await (await json("/resources/jobs", { kind, title: `Bulk ${kind}`, items })).json()) as { id: string };
  return answer.id;
}

type ChunkAnswer = { results?: Array<{ key: string; error?: string; unknown?: boolean }>; message?: string };
const chunk = async (jobId: string, keys: string[], cookie = admin) => {
  const response = await app.fetch(ACCOUNT_JOB_CHUNK_ENDPOINT, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify({ jobId, keys }) });
  return { status: response.status, answer: (await response.json().catch(() => null)) as ChunkAnswer | null };
};
const depositForm = (account: TestUser, amount: string) => ({ intent: "deposit", user: String(account.id), isPartner: "false", amount, remark: "chunk", requestId: randomUUID() });
const balanceOf = async (account: TestUser) => {
  const entries = (await listAudit(app.store, { call: "userDeposit" }, { limit: 500, offset: 0 })).filter((entry) => entry.accountId === String(account.id) && entry.outcome === "ok");
  return entries.map((entry) => entry.amount);
};

describe("a bulk account job over the console's HTTP", () => {
  it("an item posted twice under its job moves the money once; the second is answered from the store", async () => {
    const form = { intent: "deposit", user: String(user.id), isPartner: "false", amount: "25", remark: "bulk", requestId: randomUUID() };
    const id = await storeJob("deposit", form);
    expect(await desk({ ...form, jobId: id })).toContain(MESSAGES.depositAdded);
    expect(await desk({ ...form, jobId: id })).toContain(MESSAGES.answeredBefore);
    const deposits = (await listAudit(app.store, { call: "userDeposit" }, { limit: 50, offset: 0 })).filter((entry) => entry.accountId === String(user.id));
    expect(deposits.map((entry) => [entry.outcome, entry.balanceAfter])).toEqual([["ok", 25]]);
    const resumed = (await (await json(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ outcome: string }> } };
    expect(resumed.job.items.map((item) => item.outcome)).toEqual(["done"]);
  });

  it("a switch in flight when the console stopped is checked against the account's flag", async () => {
    const off = { intent: "switch", user: String(user.id), isPartner: "false", switch: "bet", on: "false" };
    expect(await desk(off)).toContain(MESSAGES.permissionsSaved);
    // Already off: the switch in flight was applied.
    const applied = await storeJob("switch", off);
    await claimItems(app.store, applied, [String(user.id)]);
    const first = (await (await json(`/resources/jobs/${applied}/resume`)).json()) as { job: { items: Array<{ sent: boolean; outcome: string | null; message: string }> } };
    expect(first.job.items).toEqual([expect.objectContaining({ outcome: "done", message: "Found applied when resumed" })]);
    // Still off where on was asked: not applied, so reopened to be sent again.
    const pending = await storeJob("switch", { ...off, on: "true" });
    await claimItems(app.store, pending, [String(user.id)]);
    const second = (await (await json(`/resources/jobs/${pending}/resume`)).json()) as { job: { items: Array<{ sent: boolean; outcome: string | null }> } };
    expect(second.job.items).toEqual([expect.objectContaining({ sent: false, outcome: null })]);
  });

  it("a deposit in flight when the console stopped stays unknown: not seen honouring requestId, the API is never sent it again", async () => {
    const form = depositForm(user, "31.5");
    const id = await storeJob("deposit", form);
    await claimItems(app.store, id, [form.user]);
    const resumed = (await (await json(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ sent: boolean; outcome: string | null; message: string }> } };
    expect(resumed.job.items).toEqual([expect.objectContaining({ sent: true, outcome: "unknown", message: UNKNOWN_OUTCOME })]);
    // A chunk naming it again answers it as it stands, sending nothing.
    await chunk(id, [form.user]);
    expect(await balanceOf(user)).not.toContain(31.5);
  });

  it("a chunk sent twice at once performs each stored item once, and answers every key", async () => {
    const accounts = [await createUser(await houseId()), await createUser(await houseId()), await createUser(await houseId())];
    const id = await storeJob("deposit", ...accounts.map((account) => depositForm(account, "7.5")));
    const keys = accounts.map((account) => String(account.id));
    const [first, second] = await Promise.all([chunk(id, keys), chunk(id, [...keys, keys[0]!])]);
    for (const { status, answer } of [first, second]) {
      expect(status).toBe(200);
      expect(answer!.results!.map((result) => result.key).sort()).toEqual([...keys].sort());
    }
    for (const account of accounts) expect(await balanceOf(account)).toEqual([7.5]);
    const resumed = (await (await json(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ outcome: string }> } };
    expect(resumed.job.items.map((item) => item.outcome)).toEqual(["done", "done", "done"]);
  });

  it("performs only what the job stored: a key outside it is answered, never sent", async () => {
    const [inJob, outside] = [await createUser(await houseId()), await createUser(await houseId())];
    const id = await storeJob("deposit", depositForm(inJob, "3"));
    const { status, answer } = await chunk(id, [String(inJob.id), String(outside.id)]);
    expect(status).toBe(200);
    expect(answer!.results!.find((result) => result.key === String(inJob.id))).toEqual({ key: String(inJob.id) });
    expect(answer!.results!.find((result) => result.key === String(outside.id))?.error).toBeTruthy();
    expect(await balanceOf(outside)).toEqual([]);
  });

  it("refuses a chunk of another operator's job, a signed-out cookie and a malformed chunk, sending nothing", async () => {
    const account = await createUser(await houseId());
    const id = await storeJob("deposit", depositForm(account, "4"));
    const staff = await createAdmin({ role: 2, permissions: { users: true } });
    const other = await signInTo(app, staff);
    expect((await chunk(id, [String(account.id)], other)).status).toBe(403);
    const signedOut = await signInTo(app, DEMO_ACCOUNTS.admin);
    await app.fetch("/session", { method: "POST", headers: { Cookie: signedOut, "Content-Type": "application/json" }, body: JSON.stringify({ intent: "signOut" }) });
    expect((await chunk(id, [String(account.id)], signedOut)).status).toBe(302);
    for (const keys of [[], ["not-an-id"], Array.from({ length: ACCOUNT_JOB_CHUNK_MAX + 1 }, (_, n) => String(n + 1))]) {
      expect((await chunk(id, keys)).status).toBe(400);
    }
    expect((await chunk("not-a-job", [String(account.id)])).status).toBe(400);
    expect(await balanceOf(account)).toEqual([]);
  });
});
