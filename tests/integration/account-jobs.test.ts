/**
 * The users desk's bulk jobs over the console's HTTP (issue 19, ADR 0009; its store in memory):
 * an item of a stored job posted twice moves the money once, and a resume checks a switch that
 * was in flight by reading the account's flag: already as asked, it is answered done, else it is
 * reopened to be sent again.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { MESSAGES } from "../../app/lib/constants";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { claimItems } from "../../app/lib/store/jobs.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { createUser, houseId, type TestUser } from "./support/platform.js";

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

async function storeJob(kind: string, form: Record<string, string>) {
  const item = { key: form.user!, label: user.username, requestId: form.requestId ?? randomUUID(), payload: { path: "/users", form } };
  const answer = (await (await json("/resources/jobs", { kind, title: `Bulk ${kind}`, items: [item] })).json()) as { id: string };
  return answer.id;
}

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
});
