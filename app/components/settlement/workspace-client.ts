/**
 * The workspace's side of a settlement: a market's whole checked set, read as Settle market… reads
 * it (`/resources/bets/settle-choices`: kept by the bets' own event and market, refused when it
 * could not be read whole), and the jobs that settle markets by a result, through the desk's own
 * settle resource, chunk by chunk.
 */
import type { SportsBet } from "../../../protocol/wire";
import type { MarketTotal, SettleChoices } from "../../lib/bets.server";
import { MESSAGES } from "../../lib/constants";
import { scopeProblem, type SettlementScope } from "../../lib/forms/settlement";
import type { QueueRow } from "../../lib/settlement.server";
import type { BulkJob } from "../../machines/bulk.machine";
import { marketsJob, outcomeOf, reportedResult, type MarketResult } from "../../machines/settlement.machine";
import { postChunk, previewText, settleJob } from "../bets/settle-client";

export type MarketScope = { eventId: string; marketId: string };
export const scopeOf = (row: Pick<QueueRow, "eventId" | "marketId">): MarketScope => ({ eventId: row.eventId, marketId: row.marketId });

/**
 * Every pending bet of the market (or of the whole event, with its markets), checked to belong to
 * it; throws the reason it cannot be settled.
 */
export async function pendingSet(scope: SettlementScope): Promise<{ bets: SportsBet[]; markets: MarketTotal[] }> {
  const query = new URLSearchParams({ eventId: scope.eventId!, ...(scope.marketId ? { marketId: scope.marketId } : {}) });
  const response = await fetch(`/resources/bets/settle-choices?${query}`, { headers: { Accept: "application/json" } });
  const answer = (await response.json().catch(() => null)) as (SettleChoices & { message?: string }) | null;
  if (!response.ok || !answer || answer.step === "event") throw new Error(answer?.message ?? MESSAGES.fallback);
  if (answer.refusal) throw new Error(answer.refusal);
  const problem = scopeProblem(answer.bets, scope);
  if (problem) throw new Error(problem);
  return { bets: answer.bets, markets: answer.step === "market" ? answer.choices : [] };
}

export const marketSet = async (scope: MarketScope): Promise<SportsBet[]> => (await pendingSet(scope)).bets;

/** The feed's result of the row as a settlement reads it, or null (none reported, or not one for this market). */
export const reportedOf = (row: QueueRow): MarketResult | null => (row.result === null ? null : reportedResult(row.type, row.result));

/** `Team A won`, `ended on 47 runs`, `void`: a result in words. */
export function resultText(result: MarketResult): string {
  if (result.kind === "runner") return `${result.name} won`;
  if (result.kind === "runs") return `ended on ${result.runs} runs`;
  if (result.kind === "another") return "another runner won";
  return "void";
}

export const settlementsOf = (bets: readonly SportsBet[], result: MarketResult) => bets.map((bet) => ({ bet, status: outcomeOf(bet, result) }));

/** One market settled by `result`: its one question words the market, the result and the preview. */
export function marketJob(row: QueueRow, bets: readonly SportsBet[], result: MarketResult, how: string): BulkJob {
  const title = result.kind === "abandoned" ? "Void market" : "Settle market";
  return settleJob(title, settlementsOf(bets, result), `${row.event} · ${row.market} ${how} (${resultText(result)}): settle ${bets.length} bets?`, scopeOf(row));
}

/** Several markets settled as the feed reported them: one job, one question, each chunk sent by market. */
export function reportedMarketsJob(markets: ReadonlyArray<{ row: QueueRow; bets: readonly SportsBet[]; result: MarketResult }>): BulkJob {
  const parts = markets.map(({ row, bets, result }) => ({ scope: scopeOf(row), settlements: settlementsOf(bets, result) }));
  const all = parts.flatMap((part) => part.settlements);
  const question = `Settle ${markets.length} markets as the feed reported: ${all.length} bets? ${previewText(all)}`;
  return marketsJob("Settle markets", question, parts, postChunk);
}
