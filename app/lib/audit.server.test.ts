import { beforeAll, describe, expect, it } from "vitest";
import { CALL_LIST } from "../../protocol/calls";
import type { SportsBet } from "../../protocol/wire";
import { AUDIT_BATCH_FLUSH, AUDITED_CALLS, ITEMIZED_CALLS, UNAUDITED_POSTS, answerSummary, auditedCall, recordAudit, redact, withAuditBatch } from "./audit.server";
import { createConsoleLogger, installRootLogger } from "./observability/context.server";
import { metrics } from "./observability/metrics.server";
import { listAudit, verifyAudit } from "./store/audit-log.server";
import { openConsoleStore } from "./store/open.server";
import type { ConsoleStore } from "./store/schema";

describe("what the audit trail records", () => {
  it("every POST is audited, itemized or named as changing nothing to audit; the audited GETs are the three that change state", () => {
    const posts = CALL_LIST.filter((call) => call.method === "POST").map((call) => call.name);
    expect(posts.filter((name) => !(name in AUDITED_CALLS) && !(name in ITEMIZED_CALLS) && !UNAUDITED_POSTS.includes(name))).toEqual([]);
    const gets = CALL_LIST.filter((call) => call.method === "GET" && call.name in AUDITED_CALLS).map((call) => call.name);
    expect(gets.sort()).toEqual(["makeDefaultAdmin", "removeAdmin", "removeSlider"]);
  });

  it("records a request with nothing to hide as it is, without copying it, and copies one it redacts", () => {
    const bet = { bet: { _id: "1", username: "user0001", runner: "India", amount: 10 }, status: 1 };
    expect(redact(bet)).toBe(bet);
    const login = { username: "admin", nested: { password: "x" } };
    expect(redact(login)).toEqual({ username: "admin", nested: { password: "[redacted]" } });
    expect(login.nested.password).toBe("x");
    // Not plain JSON (a date): copied as its fields, as always.
    expect(redact({ at: new Date(0) })).toEqual({ at: {} });
  });

  it("redacts every password, secret and token, at any depth, and cuts long strings", () => {
    expect(
      redact({ user: "7", password: "hunter22", curPassword: "a", repeatPassword: "b", nested: [{ apiToken: "t", keep: 1 }], image: "x".repeat(500) }),
    ).toEqual({ user: "7", password: "[redacted]", curPassword: "[redacted]", repeatPassword: "[redacted]", nested: [{ apiToken: "[redacted]", keep: 1 }], image: "[500 characters]" });
  });

  it("keeps an answer's scalar fields, a list's length", () => {
    expect(answerSummary({ balance: 150, actorBalance: "unlimited", _id: "9", bet: { deep: true }, token: "t" })).toEqual({ balance: 150, actorBalance: "unlimited", _id: "9" });
    expect(answerSummary([1, 2, 3])).toEqual({ items: 3 });
    expect(answerSummary(undefined)).toBeNull();
  });
});

describe("what an entry records of its account (issue 32)", () => {
  let store: ConsoleStore;
  const actor = async () => ({ operator: "admin", operatorRole: 1, session: "0123456789abcdef" });
  const transfer = { user: "42", isPartner: false, amount: 10, requestId: "request-1" };
  const newest = async () => (await listAudit(store, {}, { limit: 1, offset: 0 }))[0]!;

  beforeAll(async () => {
    installRootLogger(createConsoleLogger({ level: "silent" }));
    store = await openConsoleStore({ kind: "pglite", dataDir: null });
  });

  it("names the account by the label the form carried, beside the id the call carries", async () => {
    const answered = { data: { balance: 110 } as never, httpStatus: 200, message: "Deposit added" };
    await auditedCall(store, actor, "userDeposit", transfer, async () => answered, { label: { accountName: "user0042" } });
    expect(await newest()).toMatchObject({ call: "userDeposit", accountId: "42", accountName: "user0042", amount: 10, balanceBefore: 100, balanceAfter: 110 });
  });

  it("names no account the console was not told of", async () => {
    await auditedCall(store, actor, "userWithdraw", transfer, async () => ({ data: { balance: 100 } as never, httpStatus: 200, message: "ok" }));
    expect(await newest()).toMatchObject({ call: "userWithdraw", accountId: "42", accountName: null });
  });

  it("keeps the name a call carries itself over the label", async () => {
    const bet = { _id: "9", userId: "42", username: "user0042", amount: 5, event: "A v B", market: "Match Odds", runner: "A" } as SportsBet;
    await auditedCall(store, actor, "settleBet", { bet, status: 1 } as never, async () => ({ data: bet, httpStatus: 200, message: "ok" }), {
      label: { accountName: "someone else" },
    });
    expect(await newest()).toMatchObject({ call: "settleBet", accountId: "42", accountName: "user0042" });
  });

  it("chains entries with and without a name alike", async () => {
    expect(await verifyAudit(store)).toMatchObject({ ok: true, entries: 3n });
  });
});

describe("a chunk's entries recorded together (withAuditBatch)", () => {
  let store: ConsoleStore;
  beforeAll(async () => {
    installRootLogger(createConsoleLogger({ level: "silent" }));
    store = await openConsoleStore({ kind: "pglite", dataDir: null });
  });
  const draft = (n: number) => ({
    operator: "admin", operatorRole: 1, session: null, call: "settleBet", kind: "settlement", accountId: String(n), accountName: null,
    amount: null, balanceBefore: null, balanceAfter: null, outcome: "ok" as const, status: 200, message: "ok", request: { n }, answer: null,
  });
  const count = async () => (await listAudit(store, {}, { limit: 1_000, offset: 0 })).length;

  it("appends each AUDIT_BATCH_FLUSH while the work goes on, in order, and every entry before it returns", async () => {
    let appendedMidway = 0;
    await withAuditBatch(store, async () => {
      for (let n = 1; n <= AUDIT_BATCH_FLUSH; n++) await recordAudit(store, draft(n));
      // The first batch's append was started when it filled: the chunk's other calls are still upstream.
      await new Promise((resolve) => setTimeout(resolve, 200));
      appendedMidway = await count();
      for (let n = AUDIT_BATCH_FLUSH + 1; n <= AUDIT_BATCH_FLUSH * 2 + 7; n++) await recordAudit(store, draft(n));
    });
    expect(appendedMidway).toBe(AUDIT_BATCH_FLUSH);
    const entries = await listAudit(store, {}, { limit: 1_000, offset: 0 });
    expect(entries.map((entry) => Number(entry.accountId)).reverse()).toEqual(Array.from({ length: AUDIT_BATCH_FLUSH * 2 + 7 }, (_, i) => i + 1));
    expect(await verifyAudit(store)).toMatchObject({ ok: true });
  });

  it("takes every entry waiting when an append starts: answers that came together go in one append, not one per AUDIT_BATCH_FLUSH", async () => {
    const appends = async () => (await metrics.auditAppendDuration.get()).values.find((value) => value.metricName === "betdesk_audit_append_duration_seconds_count")?.value ?? 0;
    const before = await appends();
    const first = await count();
    // Four `/settle-bets` answers at once: their entries are all waiting when the first append starts.
    await withAuditBatch(store, () => Promise.all(Array.from({ length: AUDIT_BATCH_FLUSH * 4 }, (_, i) => recordAudit(store, draft(10_000 + i)))));
    expect((await appends()) - before).toBe(1);
    expect((await count()) - first).toBe(AUDIT_BATCH_FLUSH * 4);
    expect(await verifyAudit(store)).toMatchObject({ ok: true });
  });
});
