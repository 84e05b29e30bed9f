/**
 * The settlement desk's flow (docs/product.md §4): which outcome each pending bet gets from a market's result,
 * the preview the one confirmation shows, and the run. The run is the bulk machine in chunks: a
 * chunk of bets goes to one console action that settles them upstream with bounded concurrency
 * and answers each bet's result; cancel stops after the chunks in flight, resume never resends a
 * bet (a bet already settled is the platform's 409, reported, never retried). Pure: the chunk's
 * call is provided at the edge (`runChunk`).
 */
import { SETTLEMENT, type SettlementCode } from "../../protocol/wire";
import { bulkMachine, type BulkJob, type ItemResult, type Resumed, type RunChunk } from "./bulk.machine";
import { inBatches } from "./in-batches";
import { messageOf } from "./error-message";

/** What the settlement machine needs of a bet (a `SportsBet` has it). */
export type SettleableBet = {
  _id: string;
  username: string;
  runner: string;
  type: "odds" | "bookmaker" | "fancy";
  isBack: 0 | 1;
  amount: number;
  x: number;
  odds: number;
  exposure: number;
};

/** What a confirmation shows of a bet (SettleableBet's fields): a stored job sends these, and the console stores the API's bet they match. */
const confirmedOf = ({ _id, username, runner, type, isBack, amount, x, odds, exposure }: SettleableBet): SettleableBet => ({
  _id,
  username,
  runner,
  type,
  isBack,
  amount,
  x,
  odds,
  exposure,
});

/** A market's result: the winning runner, a runner with no pending bets, void, or a fancy line's final runs. */
export type MarketResult =
  | { kind: "runner"; name: string }
  | { kind: "another" }
  | { kind: "abandoned" }
  | { kind: "runs"; runs: number };

/**
 * A job's bets go to the console in at least SETTLE_CHUNKS_PER_JOB requests of 40 to 200 bets;
 * each request settles its bets upstream a few at a time. A chunk's turn costs a store round
 * (claims, answers, the audit batch) and a tail with few calls in flight, so larger chunks are
 * faster; five or more keep the progress moving, and cancel stops after the chunks in flight
 * (SETTLE_CHUNKS_IN_FLIGHT: two fifths of the job at most).
 */
export const SETTLE_CHUNK_SIZE = 200;
const SETTLE_CHUNK_MIN = 40;
const SETTLE_CHUNKS_PER_JOB = 5;
/**
 * Chunks of a settlement job in flight at once: the console's store work for one chunk (its
 * answers and audit entries) overlaps the API's work on the next, whose calls wait for the job's
 * lanes (app/lib/job-lanes.server.ts), so the API is not left waiting between chunks.
 */
export const SETTLE_CHUNKS_IN_FLIGHT = 2;
export const settleChunkSizeFor = (bets: number) => Math.min(SETTLE_CHUNK_SIZE, Math.max(SETTLE_CHUNK_MIN, Math.ceil(bets / SETTLE_CHUNKS_PER_JOB)));

/** Back on the winner wins, lay on it loses, the reverse on the others; fancy yes wins when runs ≥ line. */
export function outcomeOf(bet: SettleableBet, result: MarketResult): SettlementCode {
  if (result.kind === "abandoned") return SETTLEMENT.abandoned;
  const backWins = result.kind === "runs" ? result.runs >= bet.x : result.kind === "runner" && result.name === bet.runner;
  return backWins === (bet.isBack === 1) ? SETTLEMENT.success : SETTLEMENT.fail;
}

const paise = (rupees: number) => Math.round(rupees * 100);
/**
 * What a won bet earns, as the platform pays it (docs/protocol.md "Sports book", Ledger): back stake
 * × (x − 1), fancy yes stake × rate / 100, rounded down in paise (the house's favour); lay and no
 * the stake. In bigint: a stake in paise times a price in hundredths can pass 2^53.
 */
function winningsOf(bet: SettleableBet): number {
  if (!bet.isBack) return paise(bet.amount);
  const [factor, scale] = bet.type === "fancy" ? [paise(bet.odds), 10_000n] : [paise(bet.x) - 100, 100n];
  return Number((BigInt(paise(bet.amount)) * BigInt(factor)) / scale);
}

export type Settlement = { bet: SettleableBet; status: SettlementCode };

/** Counts won, lost and void, the stake, and what the house gains (negative: it pays out). */
export function previewOf(settlements: readonly Settlement[]) {
  const preview = { won: 0, lost: 0, void: 0, stake: 0, houseResult: 0 };
  let house = 0;
  let stake = 0;
  for (const { bet, status } of settlements) {
    stake += paise(bet.amount);
    if (status === SETTLEMENT.success) {
      preview.won++;
      house -= winningsOf(bet);
    } else if (status === SETTLEMENT.fail) {
      preview.lost++;
      house += paise(bet.exposure);
    } else preview.void++;
  }
  return { ...preview, stake: stake / 100, houseResult: house / 100 };
}

/**
 * The result a feed reported, as the settlement reads it: a fancy line's final run count, else the
 * winning runner's name (a runner no pending bet names settles like "another runner"). Null when
 * the text is no result for that market (a fancy line's result that is not a whole number).
 */
export function reportedResult(type: SettleableBet["type"], text: string): MarketResult | null {
  if (type !== "fancy") return text ? { kind: "runner", name: text } : null;
  return /^\d{1,4}$/.test(text) ? { kind: "runs", runs: Number(text) } : null;
}

/** One market's part of a batch: what its chunks must belong to, and its bets' outcomes. */
export type MarketSettlement<Scope> = { scope: Scope; settlements: readonly Settlement[] };

/** A chunk spanning several markets sends this many of its markets' requests at once. */
const SETTLE_PARTS_IN_FLIGHT = 4;

/**
 * The job that settles these markets' bets (a selection or Settle market… is one market's part,
 * the settlement workspace's batch several): one confirmation, then chunks, every bet an item
 * whose request key is its id (the platform settles a bet once whatever is sent). A chunk
 * spanning two markets goes as one request per market (SETTLE_PARTS_IN_FLIGHT at once), each with its own scope, and a request
 * whose answer was lost marks only its own bets unknown. Stored as confirmed (kind `settle`),
 * each item with its scope, bet and outcome, so a resume can send it after a restart.
 */
export function marketsJob<Scope>(
  title: string,
  question: string,
  markets: readonly MarketSettlement<Scope>[],
  settleMarketChunk: (scope: Scope, chunk: Settlement[], jobId: string | null) => Promise<ItemResult[]>,
  resumed?: Resumed,
): BulkJob {
  const byId = new Map(markets.flatMap(({ scope, settlements }) => settlements.map((settlement) => [settlement.bet._id, { scope, ...settlement }] as const)));
  const items = markets.flatMap(({ settlements }) =>
    settlements.map(({ bet }) => ({ key: bet._id, label: `${bet._id} ${bet.username} ${bet.runner}`, requestId: bet._id })),
  );
  const performChunk: RunChunk = async (chunk, jobId) => {
    const parts = new Map<Scope, Settlement[]>();
    for (const item of chunk) {
      const { scope, bet, status } = byId.get(item.key)!;
      parts.set(scope, [...(parts.get(scope) ?? []), { bet, status }]);
    }
    const answered = await inBatches([...parts], SETTLE_PARTS_IN_FLIGHT, async ([scope, part]) => {
      try {
        return await settleMarketChunk(scope, part, jobId);
      } catch (error) {
        return part.map(({ bet }) => ({ key: bet._id, error: messageOf(error), unknown: true }));
      }
    });
    return answered.flat();
  };
  return {
    title,
    question,
    chunkSize: settleChunkSizeFor(items.length),
    chunksInFlight: SETTLE_CHUNKS_IN_FLIGHT,
    items,
    performChunk,
    stored: {
      kind: "settle",
      // The first two chunks go upstream as the job is stored: the API settles while its other items are written.
      startsWindow: true,
      // The bet as the confirmation showed it: the console stores the API's own bet, checked against these fields.
      payloadOf: (item) => {
        const { scope, bet, status } = byId.get(item.key)!;
        return { scope, bet: confirmedOf(bet), status };
      },
    },
    resumed,
  };
}

/** A stored settlement item's payload: what marketsJob wrote. */
export type StoredSettlement<Scope> = { scope: Scope; bet: SettleableBet; status: SettlementCode };

/** A stored settlement job's markets again, one part per scope, in the order stored. */
export function marketsOfStored<Scope>(payloads: readonly StoredSettlement<Scope>[]): MarketSettlement<Scope>[] {
  const parts = new Map<string, { scope: Scope; settlements: Settlement[] }>();
  for (const { scope, bet, status } of payloads) {
    const key = JSON.stringify(scope);
    if (!parts.has(key)) parts.set(key, { scope, settlements: [] });
    parts.get(key)!.settlements.push({ bet, status });
  }
  return [...parts.values()];
}

export const settlementMachine = bulkMachine;
