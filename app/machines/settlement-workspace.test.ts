/**
 * The settlement workspace's job (issue 18): markets settled as the feed reported, by a corrected
 * result, or voided, one job over several markets whose chunks go per market, with a partial
 * failure, and cancel and resume that never send a bet twice. The bulk machine runs it with the
 * chunk call faked through .provide().
 */
import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { SETTLEMENT, type SettlementCode } from "../../protocol/wire";
import { bulkMachine, chunkRunnerOf, UNKNOWN_OUTCOME, type BulkJob, type ItemResult } from "./bulk.machine";
import { marketsJob, outcomeOf, reportedResult, settleChunkSizeFor, SETTLE_CHUNKS_IN_FLIGHT, type MarketResult, type SettleableBet, type Settlement } from "./settlement.machine";

type Scope = { eventId: string; marketId: string };

const bet = (id: string, over: Partial<SettleableBet> = {}): SettleableBet => ({
  _id: id,
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

/** A market of `count` bets alternating back India, lay India, back Australia. */
function market(marketId: string, count: number) {
  const sides: Partial<SettleableBet>[] = [{}, { isBack: 0, exposure: 85 }, { runner: "Australia" }];
  return { scope: { eventId: "E1", marketId }, bets: Array.from({ length: count }, (_, i) => bet(`${marketId}-${i}`, sides[i % 3])) };
}
const settled = (bets: SettleableBet[], result: MarketResult): Settlement[] => bets.map((each) => ({ bet: each, status: outcomeOf(each, result) }));

/** Runs the job in the bulk machine; `answer` is the fake settle resource, called per market part of a chunk. */
function run(job: BulkJob) {
  const actor = createActor(bulkMachine.provide({ actors: { runChunk: fromPromise(({ input }) => chunkRunnerOf(job)(input.items, input.jobId)) } }), {
    input: { items: job.items, chunkSize: job.chunkSize, chunksInFlight: job.chunksInFlight },
  }).start();
  return actor;
}
function resource(answer: (scope: Scope, chunk: Settlement[]) => Promise<ItemResult[]> = async (_, chunk) => chunk.map(({ bet }) => ({ key: bet._id }))) {
  const calls = vi.fn(answer);
  const sent = () => calls.mock.calls.flatMap(([scope, chunk]) => chunk.map(({ bet, status }) => ({ market: scope.marketId, id: bet._id, status })));
  return { calls, sent };
}

describe("the feed's result", () => {
  it("is a runner's name, or a fancy line's whole run count", () => {
    expect(reportedResult("odds", "India")).toEqual({ kind: "runner", name: "India" });
    expect(reportedResult("bookmaker", "The Draw")).toEqual({ kind: "runner", name: "The Draw" });
    expect(reportedResult("fancy", "47")).toEqual({ kind: "runs", runs: 47 });
    expect(reportedResult("fancy", "forty")).toBeNull();
    expect(reportedResult("odds", "")).toBeNull();
  });
});

describe("the workspace's job", () => {
  const statuses = (sent: ReturnType<ReturnType<typeof resource>["sent"]>) => Object.fromEntries(sent.map(({ id, status }) => [id, status]));

  it("settles a market as the feed reported: back India wins, lay India loses, back Australia loses", async () => {
    const { scope, bets } = market("M1", 3);
    const api = resource();
    const actor = run(marketsJob("Settle market", "?", [{ scope, settlements: settled(bets, reportedResult("odds", "India")!) }], api.calls));
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(statuses(api.sent())).toEqual({ "M1-0": SETTLEMENT.success, "M1-1": SETTLEMENT.fail, "M1-2": SETTLEMENT.fail });
    expect(api.calls.mock.calls.map(([sentScope]) => sentScope)).toEqual([scope]);
    expect(actor.getSnapshot().context.done).toEqual(["M1-0", "M1-1", "M1-2"]);
  });

  it("settles by a corrected result: each outcome follows the runner the operator chose", async () => {
    const { scope, bets } = market("M1", 3);
    const api = resource();
    const actor = run(marketsJob("Settle market", "?", [{ scope, settlements: settled(bets, { kind: "runner", name: "Australia" }) }], api.calls));
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(statuses(api.sent())).toEqual({ "M1-0": SETTLEMENT.fail, "M1-1": SETTLEMENT.success, "M1-2": SETTLEMENT.success });
  });

  it("voids a market: every bet abandoned", async () => {
    const { scope, bets } = market("M1", 4);
    const api = resource();
    const actor = run(marketsJob("Void market", "?", [{ scope, settlements: settled(bets, { kind: "abandoned" }) }], api.calls));
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(new Set(api.sent().map(({ status }) => status))).toEqual(new Set<SettlementCode>([SETTLEMENT.abandoned]));
    expect(api.sent()).toHaveLength(4);
  });

  it("settles a batch of markets chunk by chunk, each part with its market's scope; a lost answer and a refusal fail only their own bets", async () => {
    // Chunks of 40: the first holds all of A and B's first 10 bets.
    const markets = [market("A", 30), market("B", 30), market("C", 30)];
    const total = 90;
    const api = resource(async (scope, chunk) => {
      // B's request of the first chunk gets no answer at all; one bet of C was settled meanwhile.
      if (scope.marketId === "B" && chunk.some(({ bet }) => bet._id === "B-0")) throw new Error("socket hang up");
      return chunk.map(({ bet }) => (bet._id === "C-5" ? { key: bet._id, error: "Bet already settled" } : { key: bet._id }));
    });
    const job = marketsJob(
      "Settle markets",
      "?",
      markets.map(({ scope, bets }) => ({ scope, settlements: settled(bets, { kind: "runner", name: "India" }) })),
      api.calls,
    );
    expect(job.chunkSize).toBe(40);
    const actor = run(job);
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));

    // Every part went with its own market's scope, and held only that market's bets.
    for (const [scope, chunk] of api.calls.mock.calls) expect(chunk.every(({ bet }) => bet._id.startsWith(`${scope.marketId}-`))).toBe(true);
    const { done, failed } = actor.getSnapshot().context;
    const lost = failed.filter((failure) => failure.unknown).map((failure) => failure.key);
    expect(lost).toEqual(Array.from({ length: 10 }, (_, i) => `B-${i}`));
    expect(failed.find((failure) => failure.key === "B-0")!.reason).toBe(`${UNKNOWN_OUTCOME} (socket hang up)`);
    expect(failed.filter((failure) => !failure.unknown)).toEqual([{ key: "C-5", label: "C-5 userC-5 Australia", reason: "Bet already settled" }]);
    expect(done).toHaveLength(total - 11);
    // Each bet was sent once, none again after failing.
    const ids = api.sent().map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(total);
  });

  it("cancels after the chunks in flight and resumes without sending a bet twice", async () => {
    const markets = [market("A", 50), market("B", 50)];
    const total = 100;
    const chunkSize = settleChunkSizeFor(total);
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const api = resource(async (_, chunk) => {
      if (chunk.some(({ bet }) => bet._id === "A-0")) await first;
      return chunk.map(({ bet }) => ({ key: bet._id }));
    });
    const actor = run(marketsJob("Settle markets", "?", markets.map(({ scope, bets }) => ({ scope, settlements: settled(bets, { kind: "runner", name: "India" }) })), api.calls));
    actor.send({ type: "bulk.confirm" });
    actor.send({ type: "bulk.cancel" });
    release();
    await waitFor(actor, (s) => s.hasTag("cancelled"));
    expect(actor.getSnapshot().context.done).toHaveLength(SETTLE_CHUNKS_IN_FLIGHT * chunkSize);
    const beforeResume = api.sent().length;
    expect(beforeResume).toBe(SETTLE_CHUNKS_IN_FLIGHT * chunkSize);

    actor.send({ type: "bulk.resume" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    const ids = api.sent().map(({ id }) => id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(actor.getSnapshot().context.done).toHaveLength(total);
  });
});
