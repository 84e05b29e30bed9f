import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { SETTLEMENT } from "../../protocol/wire";
import { UNKNOWN_OUTCOME, type BulkItem, type ItemResult } from "./bulk.machine";
import { marketsJob, outcomeOf, previewOf, settleChunkSizeFor, settlementMachine, SETTLE_CHUNK_SIZE, SETTLE_CHUNKS_IN_FLIGHT, type SettleableBet } from "./settlement.machine";

const bet = (id: number, over: Partial<SettleableBet> = {}): SettleableBet => ({
  _id: String(id),
  username: `user${id}`,
  runner: "India",
  type: "odds",
  isBack: 1,
  amount: 100,
  x: 1.85,
  odds: 1.85,
  exposure: 100,
  ...over,
});
const items = (count: number): BulkItem[] =>
  Array.from({ length: count }, (_, i) => ({ key: String(i), label: `bet ${i}`, requestId: String(i) }));

/** A settlement actor whose chunk call is `settle`; every chunk it was sent is recorded. */
function start(count: number, settle: (chunk: BulkItem[]) => Promise<ItemResult[]> = async (chunk) => chunk.map(({ key }) => ({ key }))) {
  const sent = vi.fn(settle);
  const actor = createActor(settlementMachine.provide({ actors: { runChunk: fromPromise(({ input }) => sent(input.items)) } }), {
    input: { items: items(count), chunkSize: SETTLE_CHUNK_SIZE, chunksInFlight: SETTLE_CHUNKS_IN_FLIGHT },
  }).start();
  const sentKeys = () => sent.mock.calls.flatMap(([chunk]) => chunk.map((item) => item.key));
  return { actor, sent, sentKeys };
}

describe("settlement outcomes", () => {
  it("back on the winner wins, lay on the winner loses, the reverse on the others", () => {
    const winner = { kind: "runner", name: "India" } as const;
    expect(outcomeOf(bet(1), winner)).toBe(SETTLEMENT.success);
    expect(outcomeOf(bet(1, { isBack: 0 }), winner)).toBe(SETTLEMENT.fail);
    expect(outcomeOf(bet(1, { runner: "Australia" }), winner)).toBe(SETTLEMENT.fail);
    expect(outcomeOf(bet(1, { runner: "Australia", isBack: 0 }), winner)).toBe(SETTLEMENT.success);
  });

  it("another runner: every back loses and every lay wins; abandoned voids all", () => {
    expect(outcomeOf(bet(1), { kind: "another" })).toBe(SETTLEMENT.fail);
    expect(outcomeOf(bet(1, { isBack: 0 }), { kind: "another" })).toBe(SETTLEMENT.success);
    expect(outcomeOf(bet(1, { isBack: 0 }), { kind: "abandoned" })).toBe(SETTLEMENT.abandoned);
  });

  it("fancy yes wins when the runs reach the line, no when they fall short", () => {
    const fancy = bet(1, { type: "fancy", x: 45, odds: 90 });
    expect(outcomeOf(fancy, { kind: "runs", runs: 45 })).toBe(SETTLEMENT.success);
    expect(outcomeOf(fancy, { kind: "runs", runs: 44 })).toBe(SETTLEMENT.fail);
    expect(outcomeOf({ ...fancy, isBack: 0 }, { kind: "runs", runs: 44 })).toBe(SETTLEMENT.success);
  });

  it("previews counts and the house result, hand-computed", () => {
    // back 100 @ 1.85 won: house pays 85.00; lay 100 @ 1.85 lost: house takes its 85.00 exposure;
    // fancy yes 200 @ rate 90 won: pays 180.00; fancy no 100 @ rate 90 lost: takes 90.00; one void.
    const preview = previewOf([
      { bet: bet(1), status: SETTLEMENT.success },
      { bet: bet(2, { isBack: 0, exposure: 85 }), status: SETTLEMENT.fail },
      { bet: bet(3, { type: "fancy", amount: 200, x: 45, odds: 90, exposure: 200 }), status: SETTLEMENT.success },
      { bet: bet(4, { type: "fancy", isBack: 0, x: 45, odds: 90, exposure: 90 }), status: SETTLEMENT.fail },
      { bet: bet(5), status: SETTLEMENT.abandoned },
    ]);
    expect(preview).toEqual({ won: 2, lost: 2, void: 1, stake: 600, houseResult: 85 - 85 - 180 + 90 });
  });

  it("previews winnings rounded down as the platform pays them", () => {
    // back 1.01 @ 1.57 wins 0.5757: paid 0.57; fancy yes 1.15 @ rate 10 wins 0.115: paid 0.11
    const preview = previewOf([
      { bet: bet(1, { amount: 1.01, x: 1.57 }), status: SETTLEMENT.success },
      { bet: bet(2, { type: "fancy", amount: 1.15, x: 45, odds: 10 }), status: SETTLEMENT.success },
    ]);
    expect(preview.houseResult).toBe(-0.68);
  });
});

describe("settlement chunks", () => {
  it("a job goes in five chunks or more, of 40 to 200 bets", () => {
    expect([1, 120, 200, 500, 1000, 10_000].map(settleChunkSizeFor)).toEqual([40, 40, 40, 100, 200, 200]);
  });

  it("a stored job carries each bet as its confirmation showed it, nothing more: the console stores the API's own", () => {
    const shown = bet(7);
    const listed = { ...shown, userId: "u7", event: "India v Australia", createdAt: "2026-11-29T07:00:00.000Z" };
    const job = marketsJob("Settle bets", "Settle?", [{ scope: { marketId: "m1" }, settlements: [{ bet: listed, status: SETTLEMENT.success }] }], async () => []);
    expect(job.stored?.payloadOf(job.items[0]!)).toEqual({ scope: { marketId: "m1" }, bet: shown, status: SETTLEMENT.success });
  });
});

describe("settlement machine", () => {
  it("a single bet: asks once, sends it once, done", async () => {
    const { actor, sent } = start(1);
    expect(actor.getSnapshot().hasTag("confirming")).toBe(true);
    expect(sent).not.toHaveBeenCalled();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(sent).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.done).toEqual(["0"]);
  });

  it("a batch goes in chunks, each bet exactly once, progress counted per bet", async () => {
    const count = 2 * SETTLE_CHUNK_SIZE + 20;
    const { actor, sent, sentKeys } = start(count);
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(sent.mock.calls.map(([chunk]) => chunk.length)).toEqual([SETTLE_CHUNK_SIZE, SETTLE_CHUNK_SIZE, 20]);
    expect(sentKeys()).toEqual(items(count).map((item) => item.key));
    expect(actor.getSnapshot().context.done).toHaveLength(count);
  });

  it("cancel stops after the chunks in flight; resume sends only the rest, never a bet twice", async () => {
    let release!: () => void;
    const count = (SETTLE_CHUNKS_IN_FLIGHT + 1) * SETTLE_CHUNK_SIZE + 20;
    const { actor, sentKeys } = start(count, async (chunk) => {
      if (chunk[0]!.key === "0") await new Promise<void>((resolve) => (release = resolve));
      return chunk.map(({ key }) => ({ key }));
    });
    actor.send({ type: "bulk.confirm" });
    actor.send({ type: "bulk.cancel" });
    release();
    await waitFor(actor, (s) => s.hasTag("cancelled"));
    expect(actor.getSnapshot().context.done).toHaveLength(SETTLE_CHUNKS_IN_FLIGHT * SETTLE_CHUNK_SIZE);
    expect(sentKeys()).toHaveLength(SETTLE_CHUNKS_IN_FLIGHT * SETTLE_CHUNK_SIZE);
    actor.send({ type: "bulk.resume" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(sentKeys()).toEqual(items(count).map((item) => item.key));
    expect(new Set(sentKeys()).size).toBe(count);
  });

  it("partial failure: each refused bet is reported with its reason (a 409 is not retried)", async () => {
    // The second refusal is in the second chunk.
    const late = String(SETTLE_CHUNK_SIZE + 5);
    const { actor, sent } = start(SETTLE_CHUNK_SIZE + 10, async (chunk) =>
      chunk.map(({ key }) => (key === "3" || key === late ? { key, error: "Bet already settled" } : { key })),
    );
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toHaveLength(SETTLE_CHUNK_SIZE + 8);
    expect(failed).toEqual([
      { key: "3", label: "bet 3", reason: "Bet already settled" },
      { key: late, label: `bet ${late}`, reason: "Bet already settled" },
    ]);
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it("a chunk whose answer is lost marks each of its bets unknown and is not sent again", async () => {
    const { actor, sentKeys } = start(SETTLE_CHUNK_SIZE + 20, async (chunk) => {
      if (chunk[0]!.key === "0") throw new Error("Something went wrong");
      return chunk.map(({ key }) => ({ key }));
    });
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    const { done, failed } = actor.getSnapshot().context;
    expect(failed).toHaveLength(SETTLE_CHUNK_SIZE);
    expect(failed[0]).toMatchObject({ reason: `${UNKNOWN_OUTCOME} (Something went wrong)`, unknown: true });
    expect(failed.every((failure) => failure.unknown)).toBe(true);
    expect(done).toHaveLength(20);
    expect(sentKeys()).toHaveLength(SETTLE_CHUNK_SIZE + 20);
  });
});
