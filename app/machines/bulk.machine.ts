/**
 * Bulk commands (super admin): one confirmation for the whole batch, then items run one at a
 * time with done / failed / remaining counts. Cancel stops after the item in flight; resume picks
 * up at the next item and never repeats one that finished. Each item's requestId is fixed when
 * the batch is confirmed, so even an item whose answer was lost cannot apply twice.
 * Pure: running one item is the `runItem` actor.
 */
import { assign, fromPromise, setup } from "xstate";
import { messageOf } from "./error-message";

export type BulkItem = { key: string; label: string; requestId: string };
/** What a bulk command hands the shell: its confirmation and the work for each item. */
export type BulkJob = {
  title: string;
  /** The one confirmation, e.g. `Deposit 100.00 to 20 accounts (total 2,000.00)?` */
  question: string;
  items: BulkItem[];
  perform: (item: BulkItem) => Promise<void>;
};

export type BulkFailure = { key: string; label: string; reason: string };

type Context = {
  items: BulkItem[];
  /** The next item to run. */
  next: number;
  done: string[];
  failed: BulkFailure[];
  /** Cancel waits for the item in flight (its outcome is recorded), then stops. */
  stopRequested: boolean;
};

const notProvided = new Error("bulk machine: runItem was not provided");

export const bulkMachine = setup({
  types: {
    context: {} as Context,
    input: {} as { items: BulkItem[] },
    events: {} as { type: "bulk.confirm" } | { type: "bulk.decline" } | { type: "bulk.cancel" } | { type: "bulk.resume" },
  },
  actors: {
    runItem: fromPromise<void, BulkItem>(async () => {
      throw notProvided;
    }),
  },
  guards: {
    stopRequested: ({ context }) => context.stopRequested,
    hasMore: ({ context }) => context.next < context.items.length,
  },
}).createMachine({
  id: "bulk",
  context: ({ input }) => ({ items: input.items, next: 0, done: [], failed: [], stopRequested: false }),
  initial: "confirming",
  states: {
    confirming: {
      tags: ["confirming"],
      on: { "bulk.confirm": "running", "bulk.decline": "declined" },
    },
    running: {
      tags: ["running"],
      entry: assign({ stopRequested: false }),
      initial: "deciding",
      on: { "bulk.cancel": { actions: assign({ stopRequested: true }) } },
      states: {
        deciding: {
          always: [
            { guard: "stopRequested", target: "#bulk.cancelled" },
            { guard: "hasMore", target: "item" },
            { target: "#bulk.finished" },
          ],
        },
        item: {
          invoke: {
            src: "runItem",
            input: ({ context }) => context.items[context.next]!,
            onDone: {
              target: "deciding",
              actions: assign({
                done: ({ context }) => [...context.done, context.items[context.next]!.key],
                next: ({ context }) => context.next + 1,
              }),
            },
            onError: {
              target: "deciding",
              actions: assign({
                failed: ({ context, event }) => {
                  const item = context.items[context.next]!;
                  return [...context.failed, { key: item.key, label: item.label, reason: messageOf(event.error) }];
                },
                next: ({ context }) => context.next + 1,
              }),
            },
          },
        },
      },
    },
    cancelled: {
      tags: ["cancelled"],
      on: { "bulk.resume": "running" },
    },
    finished: { tags: ["finished"], type: "final" },
    declined: { type: "final" },
  },
});

export const remainingOf = (context: Context): number => context.items.length - context.next;
