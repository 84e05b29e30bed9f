/**
 * Bulk commands: one confirmation for the whole batch, then the items run in chunks (one item a
 * chunk unless the job says more) with done / failed / remaining counts per item; a job may keep
 * more than one chunk in flight (`chunksInFlight`). Cancel stops after the chunks in flight; resume
 * picks up at the next chunk and never repeats an item that was sent, whatever its answer. Each
 * item's requestId is fixed when the batch is confirmed; an API may ignore it
 * (docs/product.md §7.2 has no idempotency), so an item whose answer was lost is never resent by
 * the runner: it is marked "Unknown: check before retrying" and the operator decides. A job the
 * shell can store (`stored`) is written to the console's store once confirmed (`recordJob`,
 * issue 19), and its chunks carry its id; a job resumed from the store starts with the answers
 * recorded and sends only the items that have none; one four-eyes holds (`held`) sends nothing.
 * Pure: recording and running a chunk are actors.
 */
import { assign, fromPromise, setup } from "xstate";
import { messageOf } from "./error-message";

export type BulkItem = { key: string; label: string; requestId: string };
/**
 * One item's answer within a chunk: no `error` means it was done; `unknown` means no answer came
 * back for it (a timeout, a lost connection, a 5xx): it may have been applied.
 */
export type ItemResult = { key: string; error?: string; unknown?: boolean };
/** `jobId`: the stored job the chunk belongs to, or null when it was not stored. */
export type RunChunk = (items: BulkItem[], jobId: string | null) => Promise<ItemResult[]>;

/** The kinds of stored job; each tells the server how to check an item that was in flight. */
export type JobKind = "settle" | "deposit" | "withdraw" | "switch";

/**
 * Lines shown with the confirmation (a file's, issue 34): a summary, then one row per line with
 * its cells and, for a line left out, its problem; `e` moves to the next problem.
 */
export type BulkPreview = { summary: string; columns: readonly string[]; rows: ReadonlyArray<{ key: string; cells: readonly string[]; problem?: string }> };

/** What a bulk command hands the shell: its confirmation and the work. */
export type BulkJob = {
  title: string;
  /** The one confirmation, e.g. `Deposit 100.00 to 20 accounts (total 2,000.00)?` */
  question: string;
  preview?: BulkPreview;
  items: BulkItem[];
  /** Items sent together (one console request for many upstream calls); default 1. */
  chunkSize?: number;
  /** Chunks sent before the earlier ones answer; default 1 (a settlement job's: SETTLE_CHUNKS_IN_FLIGHT). */
  chunksInFlight?: number;
  /**
   * Written to the store when confirmed: its kind and what each item sends, to resume it after a
   * restart; `file`, a job from a file's preview lines and seal, which the server checks again.
   */
  stored?: {
    kind: JobKind;
    payloadOf: (item: BulkItem) => unknown;
    file?: unknown;
    /** The server sends the first chunks (one window) as it stores the job, so the API starts before the job is written whole (issue 35). */
    startsWindow?: true;
  };
  /** A job resumed from the store: its id and the answers recorded there. */
  resumed?: Resumed;
} & ({ perform: (item: BulkItem, jobId: string | null) => Promise<void> } | { performChunk: RunChunk });

/**
 * What recording a confirmed job answers: its id, null (not stored), or held for four-eyes approval with what the
 * operator is told; or a job whose first chunks the server sent as it stored it (`startsWindow`): their answers,
 * in order, and its id (null when the rest could not be stored: it runs unstored).
 */
export type RecordedJob = string | null | { held: string } | StartedJob;
export type StartedJob = { id: string | null; started: ReadonlyArray<Promise<ItemResult[]>> };

/** `conflict`: found done otherwise by someone else when resumed (issue 29), counted apart from the job's failures. */
export type BulkFailure = { key: string; label: string; reason: string; unknown?: true; conflict?: true };
export type Resumed = { jobId: string; done: string[]; failed: BulkFailure[] };

/** What an item whose answer was lost shows: it may have been applied, so nobody resends it blind. */
export const UNKNOWN_OUTCOME = "Unknown: check before retrying";

/** A chunk runner from a one-item effect: items one after another, each failure its own. */
export const eachItem =
  (perform: (item: BulkItem, jobId: string | null) => Promise<void>): RunChunk =>
  async (items, jobId) => {
    const results: ItemResult[] = [];
    for (const item of items) {
      try {
        await perform(item, jobId);
        results.push({ key: item.key });
      } catch (error) {
        results.push({ key: item.key, error: messageOf(error) });
      }
    }
    return results;
  };

export const chunkRunnerOf = (job: BulkJob): RunChunk => ("performChunk" in job ? job.performChunk : eachItem(job.perform));

type Context = {
  items: BulkItem[];
  /** The items to send, in order: all of them, or on a resume those with no answer recorded. */
  queue: BulkItem[];
  chunkSize: number;
  /** Chunks sent at once at most. */
  chunksInFlight: number;
  /** The first item of the next chunk to send, in `queue`. */
  next: number;
  /** Chunks sent and not yet answered. */
  inFlight: number;
  /** Items of `queue` answered so far. */
  answered: number;
  /** Whether the job is written to the store when confirmed (`recordJob`). */
  stored: boolean;
  /** The stored job's id; null until it is written, or when it could not be. */
  jobId: string | null;
  done: string[];
  failed: BulkFailure[];
  /** Cancel waits for the chunks in flight (their outcomes are recorded), then stops. */
  stopRequested: boolean;
  /** Four-eyes kept the job for a second operator: nothing was sent (this says why). */
  held: string | null;
  /** The answers of the first chunks, which the server sent as it stored the job, in order; each is spawned as its chunk, cancel or not. */
  started: ReadonlyArray<Promise<ItemResult[]>>;
};

const notProvided = new Error("bulk machine: runChunk was not provided");
const NO_ANSWER = "no answer for this item";

/** Each chunk's actor is named after its first item's place in `queue`. */
const CHUNK_ACTOR = "chunk.";
const chunkAt = (context: Context, start: number) => context.queue.slice(start, start + context.chunkSize);
const startOf = (actorId: string) => Number(actorId.slice(CHUNK_ACTOR.length));
/** The answer of the chunk starting at `start` if the server sent it with the job. */
const startedAt = (context: Context, start: number) => (start % context.chunkSize === 0 ? context.started[start / context.chunkSize] : undefined);

/**
 * Records the answers of the chunk starting at `start`. An item the answer does not mention, or
 * whose own answer was lost, has an unknown outcome (it may have been applied): it is marked so,
 * and resent by no one.
 */
function recordChunk(context: Context, start: number, results: ItemResult[] | null, reason = NO_ANSWER) {
  const byKey = new Map((results ?? []).map((result) => [result.key, result]));
  const chunk = chunkAt(context, start);
  const done = [...context.done];
  const failed = [...context.failed];
  for (const { key, label } of chunk) {
    const result = byKey.get(key);
    if (result && !result.error) done.push(key);
    else if (result && !result.unknown) failed.push({ key, label, reason: result.error! });
    else failed.push({ key, label, reason: `${UNKNOWN_OUTCOME} (${result?.error ?? reason})`, unknown: true });
  }
  return { done, failed, answered: context.answered + chunk.length, inFlight: context.inFlight - 1 };
}

export const bulkMachine = setup({
  types: {
    context: {} as Context,
    input: {} as { items: BulkItem[]; chunkSize?: number; chunksInFlight?: number; stored?: boolean; resumed?: Resumed },
    events: {} as
      | { type: "bulk.confirm" }
      | { type: "bulk.decline" }
      | { type: "bulk.cancel" }
      | { type: "bulk.resume" }
      | { type: `xstate.done.actor.${string}`; actorId: string; output: ItemResult[] }
      | { type: `xstate.error.actor.${string}`; actorId: string; error: unknown },
  },
  actors: {
    runChunk: fromPromise<ItemResult[], { items: BulkItem[]; jobId: string | null }>(async () => {
      throw notProvided;
    }),
    /** A chunk the server sent as it stored the job: its answer, awaited; nothing is sent. */
    startedChunk: fromPromise<ItemResult[], Promise<ItemResult[]>>(({ input }) => input),
    /** Writes the confirmed job to the store and answers its id; by default nothing is stored. */
    recordJob: fromPromise<RecordedJob, { items: BulkItem[] }>(async () => null),
  },
  actions: {
    /** Sends chunks until `chunksInFlight` are out, the queue is all sent, or a cancel was asked (chunks sent with the job go whatever). */
    fillWindow: assign(({ context, spawn }) => {
      let { next, inFlight } = context;
      while (inFlight < context.chunksInFlight && next < context.queue.length && (!context.stopRequested || startedAt(context, next))) {
        const started = startedAt(context, next);
        if (started) spawn("startedChunk", { id: `${CHUNK_ACTOR}${next}`, input: started });
        else spawn("runChunk", { id: `${CHUNK_ACTOR}${next}`, input: { items: chunkAt(context, next), jobId: context.jobId } });
        next += context.chunkSize;
        inFlight++;
      }
      return { next: Math.min(next, context.queue.length), inFlight };
    }),
  },
  guards: {
    stopRequested: ({ context }) => context.stopRequested && !startedAt(context, context.next),
    hasMore: ({ context }) => context.next < context.queue.length,
    toRecord: ({ context }) => context.stored && context.jobId === null,
    drained: ({ context }) => context.inFlight === 0,
  },
}).createMachine({
  id: "bulk",
  context: ({ input }) => {
    const answered = new Set([...(input.resumed?.done ?? []), ...(input.resumed?.failed ?? []).map((failure) => failure.key)]);
    return {
      items: input.items,
      queue: input.items.filter((item) => !answered.has(item.key)),
      chunkSize: Math.max(1, input.chunkSize ?? 1),
      chunksInFlight: Math.max(1, input.chunksInFlight ?? 1),
      next: 0,
      inFlight: 0,
      answered: 0,
      stored: input.stored ?? false,
      jobId: input.resumed?.jobId ?? null,
      done: input.resumed?.done ?? [],
      failed: input.resumed?.failed ?? [],
      stopRequested: false,
      held: null,
      started: [],
    };
  },
  initial: "confirming",
  states: {
    confirming: {
      tags: ["confirming"],
      on: {
        "bulk.confirm": [{ guard: "toRecord", target: "running.recording" }, { target: "running" }],
        "bulk.decline": "declined",
      },
    },
    running: {
      tags: ["running"],
      entry: assign({ stopRequested: false }),
      initial: "deciding",
      on: { "bulk.cancel": { actions: assign({ stopRequested: true }) } },
      states: {
        recording: {
          invoke: {
            src: "recordJob",
            input: ({ context }) => ({ items: context.items }),
            onDone: [
              // Held for a second operator: nothing is sent; the checker's approval runs it.
              {
                guard: ({ event }) => typeof event.output === "object" && event.output !== null && "held" in event.output,
                target: "#bulk.held",
                actions: assign({ held: ({ event }) => (event.output as { held: string }).held }),
              },
              {
                guard: ({ event }) => typeof event.output === "object" && event.output !== null && "started" in event.output,
                target: "deciding",
                actions: assign(({ event }) => {
                  const { id, started } = event.output as StartedJob;
                  return { jobId: id, started };
                }),
              },
              { target: "deciding", actions: assign({ jobId: ({ event }) => event.output as string | null }) },
            ],
            // A store that cannot be written does not stop the work (as the audit trail's): the job runs unstored.
            onError: "deciding",
          },
        },
        deciding: {
          always: [
            { guard: "stopRequested", target: "#bulk.cancelled" },
            { guard: "hasMore", target: "chunk" },
            { target: "#bulk.finished" },
          ],
        },
        chunk: {
          entry: "fillWindow",
          always: { guard: "drained", target: "deciding" },
          on: {
            [`xstate.done.actor.${CHUNK_ACTOR}*`]: {
              actions: [assign(({ context, event }) => recordChunk(context, startOf(event.actorId), (event as { output: ItemResult[] }).output)), "fillWindow"],
            },
            // The whole chunk's answer was lost: each item is reported, none is sent again.
            [`xstate.error.actor.${CHUNK_ACTOR}*`]: {
              actions: [
                assign(({ context, event }) => recordChunk(context, startOf(event.actorId), null, messageOf((event as { error: unknown }).error))),
                "fillWindow",
              ],
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
    held: { tags: ["held"], type: "final" },
    declined: { type: "final" },
  },
});

export const remainingOf = (context: Context): number => context.queue.length - context.answered;
