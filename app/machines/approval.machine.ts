/**
 * Deciding a deposit or withdrawal request (spec §2.11, §4, §5): idle → confirming → submitting →
 * done | failed. `a` starts a success and `r` a fail for the row under the cursor; the
 * confirmation holds the deposit bonuses (entering one of a pair clears the other), the value of
 * 1 USDT for a USDT deposit, and a withdrawal's remark. Pure: the call is the `decide` actor.
 */
import { assign, fromPromise, setup } from "xstate";
import { DEPOSIT_TYPE, type DepositType } from "../../protocol/wire";
import { decisionSchema } from "../lib/forms/decision";
import { firstIssue } from "../lib/forms/first-issue";

export type RequestKind = "deposit" | "withdraw";
export type Decision = 1 | 2;
export type PendingRequest = { id: string; kind: RequestKind; username: string; amount: number; type?: DepositType };

/** The four bonus inputs of spec §5, as typed; pairs: main INR / main %, bonus INR / bonus %. */
export type BonusField = "mainInrBonus" | "mainPrnBonus" | "inrBonus" | "prnBonus";
const PAIRED: Record<BonusField, BonusField> = {
  mainInrBonus: "mainPrnBonus",
  mainPrnBonus: "mainInrBonus",
  inrBonus: "prnBonus",
  prnBonus: "inrBonus",
};
export type DecisionField = BonusField | "inr" | "remark";

export type DecisionForm = Record<DecisionField, string>;
const EMPTY_FORM: DecisionForm = { mainInrBonus: "", mainPrnBonus: "", inrBonus: "", prnBonus: "", inr: "", remark: "" };

export type DecisionInput = { request: PendingRequest; decision: Decision; form: DecisionForm };

type Context = { request: PendingRequest | null; decision: Decision | null; form: DecisionForm; error: string | null };

/** The fields the action receives for this decision (strings, as a form posts them). */
export function decisionFields({ request, decision, form }: DecisionInput): Record<string, string> {
  return {
    intent: "decide",
    id: request.id,
    decision: String(decision),
    usdt: String(request.kind === "deposit" && request.type === DEPOSIT_TYPE.usdt),
    ...form,
  };
}

/** What is wrong with the confirmation's inputs, or null: the action's own schema decides. */
export function problemWith(input: DecisionInput): string | null {
  const parsed = decisionSchema.safeParse(decisionFields(input));
  return parsed.success ? null : firstIssue(parsed.error);
}

export const approvalMachine = setup({
  types: {
    context: {} as Context,
    events: {} as
      | { type: "approval.start"; request: PendingRequest; decision: Decision }
      | { type: "approval.edit"; field: DecisionField; value: string }
      | { type: "approval.confirm" }
      | { type: "approval.cancel" },
  },
  actors: {
    decide: fromPromise<void, DecisionInput>(async () => {
      throw new Error("approval machine: decide was not provided");
    }),
  },
  actions: {
    /** The list reloads after a decision (spec §4). */
    reload: () => {},
  },
}).createMachine({
  id: "approval",
  context: { request: null, decision: null, form: EMPTY_FORM, error: null },
  initial: "idle",
  states: {
    idle: {
      on: {
        "approval.start": {
          target: "confirming",
          actions: assign(({ event }) => ({ request: event.request, decision: event.decision, form: EMPTY_FORM, error: null })),
        },
      },
    },
    confirming: {
      tags: ["open"],
      on: {
        "approval.edit": {
          actions: assign({
            form: ({ context, event }) => {
              const form = { ...context.form, [event.field]: event.value };
              // Spec §5: entering one of a pair clears the other.
              if (event.field in PAIRED && event.value !== "") form[PAIRED[event.field as BonusField]] = "";
              return form;
            },
            error: null,
          }),
        },
        "approval.confirm": [
          {
            guard: ({ context }) => problemWith(inputOf(context)) !== null,
            actions: assign({ error: ({ context }) => problemWith(inputOf(context)) }),
          },
          { target: "submitting" },
        ],
        "approval.cancel": { target: "idle", actions: assign({ request: null, decision: null, error: null }) },
      },
    },
    submitting: {
      tags: ["open", "busy"],
      invoke: {
        src: "decide",
        input: ({ context }) => inputOf(context),
        onDone: { target: "done", actions: "reload" },
        onError: {
          target: "failed",
          actions: [
            assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : "Something went wrong") }),
            // Someone else may have decided it: show the list as it is now.
            "reload",
          ],
        },
      },
    },
    done: {
      always: { target: "idle", actions: assign({ request: null, decision: null }) },
    },
    failed: {
      tags: ["open"],
      on: {
        "approval.confirm": "submitting",
        "approval.cancel": { target: "idle", actions: assign({ request: null, decision: null, error: null }) },
      },
    },
  },
});

function inputOf(context: Context): DecisionInput {
  return { request: context.request!, decision: context.decision!, form: context.form };
}
