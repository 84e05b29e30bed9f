/**
 * The desk's side of a settlement: the chunk call (one console request per chunk; the console
 * settles its bets upstream a few at a time) and the bulk job with its one question.
 */
import { SETTLEMENT, type SettlementCode, type SportsBet } from "../../../protocol/wire";
import { MESSAGES } from "../../lib/constants";
import { notifySuccess } from "../../lib/feedback";
import { formatMoney } from "../../lib/format";
import { OUTCOME_LABEL, type SettlementScope } from "../../lib/forms/settlement";
import type { BulkJob, ItemResult } from "../../machines/bulk.machine";
import { marketsJob, previewOf, type Settlement } from "../../machines/settlement.machine";

export const SETTLE_ENDPOINT = "/resources/bets/settle";

type Sent = { bet: SportsBet; status: SettlementCode };

/**
 * One chunk with the scope it was built for: the server refuses a bet of another event or market.
 * A stored job's bets are named, not carried: the console sends each as it stored it, checked
 * against the API when the job was confirmed.
 */
export async function postChunk(scope: SettlementScope, chunk: Settlement[], jobId: string | null): Promise<ItemResult[]> {
  const settlements = jobId ? chunk.map(({ bet, status }) => ({ bet: namedBet(bet as SportsBet), status })) : chunk;
  const response = await fetch(SETTLE_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ scope, settlements, ...(jobId && { jobId }) }),
  });
  const answer = (await response.json().catch(() => null)) as { results?: ItemResult[]; message?: string } | null;
  if (!response.ok || !answer?.results) throw new Error(answer?.message ?? MESSAGES.fallback);
  return answer.results;
}

/** What names a bet and its scope (the chunk's scope check reads its event and market): the desk's bets are the API's. */
const namedBet = ({ _id, eventId, marketId }: SportsBet) => ({ _id, eventId, marketId });

const signed = (amount: number) => `${amount >= 0 ? "+" : "−"}${formatMoney(Math.abs(amount))}`;

/** `Won 3 · lost 5 · void 0 · stake 800.00 · house +120.00`: what one confirmation shows. */
export function previewText(settlements: readonly Sent[]): string {
  const preview = previewOf(settlements);
  return `Won ${preview.won} · lost ${preview.lost} · void ${preview.void} · stake ${formatMoney(preview.stake)} · house ${signed(preview.houseResult)}`;
}

/**
 * The job for these settlements; a single bet settled says so with the spec's 3-second toast. The
 * list reloads when the progress closes, not per chunk: a reload reads the queue while the same
 * database settles it.
 */
export function settleJob(title: string, settlements: Sent[], question: string, scope: SettlementScope): BulkJob {
  return marketsJob(title, `${question} ${previewText(settlements)}`, [{ scope, settlements }], async (_, chunk, jobId) => {
    const results = await postChunk(scope, chunk, jobId);
    if (settlements.length === 1 && results.every((result) => !result.error)) notifySuccess(MESSAGES.betSettled, { short: true });
    return results;
  });
}

/** `s`, `f`, `v` on the cursor row or the selection: every bet gets the one outcome; the scope is the list's filter. */
export function sameOutcomeJob(bets: readonly SportsBet[], status: SettlementCode, scope: SettlementScope): BulkJob {
  const noun = bets.length === 1 ? `bet ${bets[0]!._id} (${bets[0]!.username}, ${bets[0]!.runner})` : `${bets.length} bets`;
  const verb = status === SETTLEMENT.abandoned ? "Void" : `Settle as ${OUTCOME_LABEL[status]}`;
  return settleJob(
    bets.length === 1 ? "Settle bet" : "Settle bets",
    bets.map((bet) => ({ bet, status })),
    `${verb} ${noun}?`,
    scope,
  );
}
