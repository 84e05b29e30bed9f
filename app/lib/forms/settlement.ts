/**
 * A bet's outcome as the operator types it (palette: Settle bet…, Resettle bet…), the
 * resettlement form, and the settlement chunk with the scope its bets must belong to: one schema
 * each for the desk's check and the action.
 */
import { z } from "zod";
import { SETTLEMENT, type BetStatus, type SettlementCode } from "../../../protocol/wire";

/** The words an outcome answers to; the desk's keys are the first letters (s, f, v). */
const OUTCOME_WORDS: Record<string, SettlementCode> = {
  s: SETTLEMENT.success,
  success: SETTLEMENT.success,
  won: SETTLEMENT.success,
  f: SETTLEMENT.fail,
  fail: SETTLEMENT.fail,
  lost: SETTLEMENT.fail,
  v: SETTLEMENT.abandoned,
  void: SETTLEMENT.abandoned,
  abandoned: SETTLEMENT.abandoned,
};

export const OUTCOME_LABEL: Record<SettlementCode, string> = { 1: "Success", 2: "Fail", 3: "Abandoned" };
/** The status a bet settled with an outcome has. */
export const SETTLED_STATUS: Record<SettlementCode, BetStatus> = { 1: "SUCCESS", 2: "FAIL", 3: "ABANDONED" };
export const OUTCOME_PROBLEM = "Type success, fail or abandoned (s, f, v)";

export const outcomeCodeOf = (text: string): SettlementCode | undefined => OUTCOME_WORDS[text.trim().toLowerCase()];

const outcome = z.string().transform((text, ctx) => {
  const code = outcomeCodeOf(text);
  if (code === undefined) {
    ctx.addIssue({ code: "custom", message: OUTCOME_PROBLEM });
    return z.NEVER;
  }
  return code;
});

export const resettleSchema = z.object({
  intent: z.literal("resettle"),
  bet: z.string().trim().regex(/^\d{1,19}$/, "Bet ID must be a number"),
  status: outcome,
});

/**
 * What a settlement job was built for: the chosen event (and market), or the filters the list
 * showed. Every bet of the job must belong to it by its own `eventId` and `marketId`: an API may
 * ignore the filters it was asked, so what it answered proves nothing by itself.
 */
export type SettlementScope = { eventId?: string; marketId?: string };
type ScopedBet = { _id: string; eventId: string; marketId: string | null };

export const inScope =
  (scope: SettlementScope) =>
  (bet: ScopedBet): boolean =>
    (!scope.eventId || bet.eventId === scope.eventId) && (!scope.marketId || bet.marketId === scope.marketId);

/** Why these bets are not one job for this scope (a stray or repeated bet), or null. */
export function scopeProblem(bets: readonly ScopedBet[], scope: SettlementScope): string | null {
  const ids = new Set<string>();
  for (const bet of bets) {
    if (!inScope(scope)(bet)) {
      const chosen = scope.marketId ? `market ${scope.marketId}` : `event ${scope.eventId}`;
      return `Bet ${bet._id} (event ${bet.eventId}, market ${bet.marketId ?? "none"}) is not of the chosen ${chosen}: nothing was settled`;
    }
    if (ids.has(bet._id)) return `Bet ${bet._id} is in the job twice: nothing was settled`;
    ids.add(bet._id);
  }
  return null;
}

/** Bets one chunk may carry (the desk sends SETTLE_CHUNK_SIZE, 200). */
export const SETTLE_CHUNK_LIMIT = 240;

/** A settlement's outcome code (1, 2 or 3): an enum check, many times cheaper than a union of literals over a job's thousand items. */
export const settlementCodeSchema = z.nativeEnum(SETTLEMENT);

const id = z.string().min(1).max(64);
/** One chunk of a settlement job as the desk posts it; a stray bet refuses the whole chunk. */
export const settlementChunkSchema = z
  .object({
    /** The stored job the chunk belongs to (issue 19): its items are claimed and answered there. */
    jobId: z.string().uuid().optional(),
    scope: z.object({ eventId: id.optional(), marketId: id.optional() }),
    settlements: z
      .array(
        z.object({
          bet: z.object({ _id: z.string().min(1).max(32), eventId: z.string(), marketId: z.string().nullable() }).passthrough(),
          status: settlementCodeSchema,
        }),
      )
      .min(1)
      .max(SETTLE_CHUNK_LIMIT),
  })
  .superRefine((chunk, ctx) => {
    const problem = scopeProblem(
      chunk.settlements.map((settlement) => settlement.bet),
      chunk.scope,
    );
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
