/**
 * A bet's outcome as the operator types it (palette: Settle bet…, Resettle bet…), and the
 * resettlement form, one schema for the palette's check and the action.
 */
import { z } from "zod";
import { SETTLEMENT, type SettlementCode } from "../../../protocol/wire";

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
