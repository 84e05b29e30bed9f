/**
 * A decision on a deposit or withdrawal request (docs/product.md §2.11, §5), one schema for the confirmation
 * (through the approval machine) and the action.
 */
import { z } from "zod";
import { DEPOSIT_TYPE } from "../../../protocol/wire";
import type { DecisionInput } from "../../machines/approval.machine";
import { depositCredit } from "../deposit-credit";
import { accountLabelField, remarkField } from "./account-actions";
import { firstIssue } from "./first-issue";

const amountOrEmpty = z
  .string()
  .trim()
  .regex(/^(\d+(\.\d{1,2})?)?$/, "Bonuses and the USDT value must be numbers")
  .transform((value) => (value === "" ? undefined : Number(value)));

export const decisionSchema = z
  .object({
    intent: z.literal("decide"),
    id: z.string().min(1),
    /** The request's account, for the audit trail only. */
    username: accountLabelField,
    decision: z.enum(["1", "2"]).transform((value) => (value === "1" ? 1 : 2) as 1 | 2),
    usdt: z.enum(["true", "false"]).transform((value) => value === "true"),
    mainInrBonus: amountOrEmpty,
    mainPrnBonus: amountOrEmpty,
    inrBonus: amountOrEmpty,
    prnBonus: amountOrEmpty,
    inr: amountOrEmpty,
    remark: remarkField,
  })
  .superRefine((form, ctx) => {
    if (form.decision === 1 && form.usdt && !(form.inr && form.inr > 0)) {
      ctx.addIssue({ code: "custom", path: ["inr"], message: "Enter the value of 1 USDT" });
    }
    if ((form.mainInrBonus !== undefined && form.mainPrnBonus !== undefined) || (form.inrBonus !== undefined && form.prnBonus !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["prnBonus"], message: "Give a bonus as an amount or a percentage, not both" });
    }
  });


/** The fields the action receives for this decision (strings, as a form posts them). */
export function decisionFields({ request, decision, form }: DecisionInput): Record<string, string> {
  return {
    intent: "decide",
    id: request.id,
    username: request.username,
    decision: String(decision),
    usdt: String(request.kind === "deposit" && request.type === DEPOSIT_TYPE.usdt),
    ...form,
  };
}

/**
 * What a successful deposit decision credits as typed so far (the figure four-eyes measures), or
 * null while the inputs do not parse or a USDT request has no rate yet.
 */
export function creditOfDecision(input: DecisionInput, couponPercent: number): number | null {
  const parsed = decisionSchema.safeParse(decisionFields(input));
  return parsed.success ? depositCredit(input.request, parsed.data, couponPercent) : null;
}

/** What is wrong with the confirmation's inputs, or null: the action's own schema decides. */
export function decisionProblem(input: DecisionInput): string | null {
  const parsed = decisionSchema.safeParse(decisionFields(input));
  return parsed.success ? null : firstIssue(parsed.error);
}
