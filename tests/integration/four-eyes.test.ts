/**
 * Four-eyes approval in the console's store (issue 19, ADR 0009): off until configured, a held
 * action kept with its exact request, the maker never its checker, a second approval changing
 * nothing, an expiry closing it, two checkers on two connections racing with one winner, and a
 * settlement job above a job threshold held with its exact items and requestIds. On
 * embedded PGlite, and on PostgreSQL in the integration-pg project.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  claimApproval,
  countMove,
  countPending,
  createApproval,
  FOUR_EYES_OFF,
  holdReason,
  jobHoldReason,
  listPending,
  readApproval,
  readThresholds,
  rejectApproval,
  saveThresholds,
  uncountMove,
  type ApprovalDraft,
} from "../../app/lib/store/four-eyes.server";
import { holdJobAboveThreshold } from "../../app/lib/four-eyes.server";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { consoleStores } from "./support/console-stores";





const credit: ApprovalDraft = {
  call: "userDeposit",
  request: { user: "u1", isPartner: false, amount: 5000, remark: "top-up", requestId: "req-1" },
  summary: "Credit 5000 to u1",
  reason: "above 1000",
  maker: "alice",
};

const { open, targets } = consoleStores("four_eyes");

describe("which calls a threshold holds", () => {
  it("holds nothing while off", () => {
    expect(holdReason(FOUR_EYES_OFF, "userDeposit", { amount: 1e9 })).toBeNull();
    expect(holdReason(FOUR_EYES_OFF, "resettleBet", {})).toBeNull();
  });

  it("holds a transfer above the amount (not at it) and every resettlement when set", () => {
    const set = { ...FOUR_EYES_OFF, transferAbove: 1000, resettle: true };
    expect(holdReason(set, "userDeposit", { amount: 1000 })).toBeNull();
    expect(holdReason(set, "userWithdraw", { amount: 1000.01 })).toBe("above 1000");
    expect(holdReason(set, "resettleBet", {})).toBe("every resettlement");
    expect(holdReason(set, "settleBet", {})).toBeNull();
  });

  it("holds a settlement job above either job threshold, naming each it passes", () => {
    expect(jobHoldReason(FOUR_EYES_OFF, 1e6, 1e9)).toBeNull();
    const set = { ...FOUR_EYES_OFF, jobItemsAbove: 100, jobTotalAbove: 5000 };
    expect(jobHoldReason(set, 100, 5000)).toBeNull();
    expect(jobHoldReason(set, 101, 10)).toBe("more than 100 bets");
    expect(jobHoldReason(set, 101, 5000.01)).toBe("more than 100 bets, stakes above 5000");
  });

  it("holds approving a request above the amount, or whose amount could not be read; never a rejection", () => {
    const set = { ...FOUR_EYES_OFF, decisionAbove: 500 };
    expect(holdReason(set, "updateDeposit", { _id: "d1", status: 1 }, 500)).toBeNull();
    expect(holdReason(set, "updateDeposit", { _id: "d1", status: 1 }, 501)).toBe("above 500");
    expect(holdReason(set, "updateWithdraw", { _id: "w1", status: 1 }, null)).toBe("above 500 (its amount could not be read)");
    expect(holdReason(set, "updateWithdraw", { _id: "w1", status: 2 }, 10_000)).toBeNull();
  });
});

const settleItems = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const _id = `${7000 + i}`;
    return { key: _id, label: _id, requestId: _id, payload: { scope: {}, bet: { _id, eventId: "e1", marketId: "m1", amount: 100 }, status: 1 } };
  });

describe.each(targets)("four-eyes on %s", (_name, target) => {
  it("stores the thresholds, off by default", async () => {
    const store = await open(await target());
    expect(await readThresholds(store)).toEqual(FOUR_EYES_OFF);
    const set = {
      transferAbove: 1000,
      decisionAbove: 250.5,
      resettle: true,
      jobItemsAbove: 100,
      jobTotalAbove: 5000.5,
      accountCumulativeAbove: 3000,
      operatorCumulativeAbove: 10_000.25,
      cumulativeHours: 12,
      expiryHours: 2,
    };
    await saveThresholds(store, set);
    expect(await readThresholds(store)).toEqual(set);
  });

  it("keeps the exact request; the maker cannot approve it; a second approval does nothing", async () => {
    const store = await open(await target());
    const held = await createApproval(store, credit, 24);
    expect(held).toMatchObject({ status: "pending", maker: "alice", request: credit.request, checker: null });
    expect(await countPending(store)).toBe(1);

    expect(await claimApproval(store, held.id, "alice")).toEqual({ ok: false, message: "The maker cannot approve their own request" });
    expect((await readApproval(store, held.id))?.status).toBe("pending");

    const approved = await claimApproval(store, held.id, "bob");
    expect(approved).toMatchObject({ ok: true, approval: { status: "approved", maker: "alice", checker: "bob", request: credit.request } });
    expect(await claimApproval(store, held.id, "carol")).toEqual({ ok: false, message: "Already approved" });
    expect(await rejectApproval(store, held.id, "carol")).toEqual({ ok: false, message: "Already approved" });
    expect(await countPending(store)).toBe(0);
  });

  it("a rejection closes it", async () => {
    const store = await open(await target());
    const held = await createApproval(store, credit, 24);
    expect(await rejectApproval(store, held.id, "bob")).toMatchObject({ ok: true, approval: { status: "rejected", checker: "bob" } });
    expect(await claimApproval(store, held.id, "carol")).toEqual({ ok: false, message: "Already rejected" });
  });

  it("an expiry closes it: it is no longer listed, approved or rejected", async () => {
    const store = await open(await target());
    const held = await createApproval(store, credit, 24);
    const fresh = await createApproval(store, { ...credit, maker: "dave" }, 24);
    // Moved into the past rather than waited for.
    await sql`update console_approvals set expires_at = now() - interval '1 second' where id = ${held.id}`.execute(store);
    expect((await listPending(store)).map((approval) => approval.id)).toEqual([fresh.id]);
    expect(await claimApproval(store, held.id, "bob")).toEqual({ ok: false, message: "Already expired" });
    expect(await rejectApproval(store, held.id, "bob")).toEqual({ ok: false, message: "Already expired" });
    expect((await readApproval(store, held.id))?.status).toBe("expired");
  });

  it("a settlement job above a job threshold is held with every item and requestId, written to the trail, and claimed once", async () => {
    const where = await target();
    const first = await open(where);
    const second = where.kind === "postgres" ? await open(where) : first;
    const job = { kind: "settle" as const, title: "Settle market", items: settleItems(3) };
    const maker = { operator: "alice", operatorRole: 2, session: null };
    expect(await holdJobAboveThreshold(first, maker, job)).toBeNull();
    await saveThresholds(first, { ...FOUR_EYES_OFF, jobTotalAbove: 250 });
    expect(await holdJobAboveThreshold(first, maker, job)).toBe("Sent for approval (four-eyes): stakes above 250");
    const [held] = await listPending(first);
    expect(held).toMatchObject({ call: "settleJob", maker: "alice", request: job, summary: "Settle market: 3 bets, stakes 300" });
    const [entry] = await listAudit(first, { call: "settleJob" }, { limit: 1, offset: 0 });
    expect(entry).toMatchObject({
      operator: "alice",
      outcome: "held",
      amount: 300,
      request: { title: "Settle market", requestIds: ["7000", "7001", "7002"] },
      answer: { approval: held!.id },
    });
    const results = await Promise.all([claimApproval(first, held!.id, "bob"), claimApproval(second, held!.id, "carol")]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it("two checkers on two connections racing: exactly one claims it", async () => {
    const where = await target();
    // PGlite is one process's database: its two "instances" share it; PostgreSQL gets a second pool.
    const first = await open(where);
    const second = where.kind === "postgres" ? await open(where) : first;
    for (let round = 0; round < 10; round++) {
      const held = await createApproval(first, credit, 24);
      const results = await Promise.all([claimApproval(first, held.id, "bob"), claimApproval(second, held.id, "carol")]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, message: "Already approved" }]);
    }
  });

  it("a rolling window on two connections: of two credits at once that together cross it, exactly one is counted", async () => {
    const where = await target();
    const first = await open(where);
    const second = where.kind === "postgres" ? await open(where) : first;
    await saveThresholds(first, { ...FOUR_EYES_OFF, accountCumulativeAbove: 1500 });
    for (let round = 0; round < 10; round++) {
      const move = (reference: string) => ({ operator: "alice", account: `user ${round}`, call: "userDeposit" as const, amount: 999, reference });
      const results = await Promise.all([countMove(first, move("a")), countMove(second, move("b"))]);
      expect(results.filter((result) => "counted" in result)).toHaveLength(1);
      const [held] = results.filter((result) => "reason" in result);
      expect(held).toEqual({ reason: expect.stringMatching(new RegExp(`^account user ${round} moved 1998 in 24 h with this, above 1500 \\(earlier: 999 userDeposit [ab] \\(alice\\)`)) });
    }
    // A refused credit no longer counts: the next one fits again.
    const counted = await countMove(first, { operator: "bob", account: "user x", call: "userDeposit", amount: 999, reference: "c" });
    await uncountMove(first, (counted as { counted: bigint }).counted);
    expect(await countMove(second, { operator: "bob", account: "user x", call: "userDeposit", amount: 999, reference: "d" })).toHaveProperty("counted");
  });
});
