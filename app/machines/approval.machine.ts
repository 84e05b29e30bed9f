/**
 * Deciding a deposit or withdrawal request (docs/product.md §2.11, §4, §5): idle → confirming → submitting →
 * done | failed. `a` starts a success and `r` a fail for the row under the cursor; the
 * confirmation holds the deposit bonuses (entering one of a pair clears the other), the value of
 * 1 USDT for a USDT deposit, and a withdrawal's remark. Pure: the call is the `decide` actor and
 * what is wrong with the inputs is the `check` it is started with (the action's own schema).
 */
import { assign, fromPromise, setup } from "xstate";
import type { DepositType, RequestKind } from "../../protocol/wire";
import { messageOf } from "./error-message";

export type Decision = 1 | 2;
export type PendingRequest = { id: string; kind: RequestKind; username: string; amount: number; type?: DepositType; couponCode?: string | null };

/** The four bonus inputs of docs/product.md §5, as typed; pairs: main INR / main %, bonus INR / bonus %. */
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

/** The problem with a confirmation's inputs, or null. */
export type DecisionCheck = (input: DecisionInput) => string | null;

type Context = {
  request: PendingRequest | null;
  decision: Decision | null;
  form: DecisionForm;
  error: string | null;
  check: DecisionCheck;
};

export const approvalMachine = setup({
  types: {
    context: {} as Context,
    input: {} as { check: DecisionCheck },
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
    /** The list reloads after a decision (docs/product.md §4). */
    reload: () => {},
  },
}).createMachine({
  id: "approval",
  context: ({ input }) => ({ request: null, decision: null, form: EMPTY_FORM, error: null, check: input.check }),
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
              // docs/product.md §5: entering one of a pair clears the other.
              if (event.field in PAIRED && event.value !== "") form[PAIRED[event.field as BonusField]] = "";
              return form;
            },
            error: null,
          }),
        },
        "approval.confirm": [
          {
            guard: ({ context }) => context.check(inputOf(context)) !== null,
            actions: assign({ error: ({ context }) => context.check(inputOf(context)) }),
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
            assign({ error: ({ event }) => messageOf(event.error) }),
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
