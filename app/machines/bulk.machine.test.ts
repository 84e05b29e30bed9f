import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { bulkMachine, eachItem, remainingOf, UNKNOWN_OUTCOME, type BulkItem, type ItemResult, type RecordedJob } from "./bulk.machine";

const items: BulkItem[] = Array.from({ length: 5 }, (_, i) => ({ key: `u${i}`, label: `user${i}`, requestId: `req-${i}` }));

function start(run: (item: BulkItem) => Promise<void>) {
  const runs = vi.fn(run);
  const actor = createActor(bulkMachine.provide({ actors: { runChunk: fromPromise(({ input }) => eachItem(runs)(input.items, input.jobId)) } }), {
    input: { items },
  }).start();
  return { actor, runs };
}

describe("bulk runner", () => {
  it("waits for one confirmation, then runs every item once, in order", async () => {
    const { actor, runs } = start(async () => {});
    expect(actor.getSnapshot().hasTag("confirming")).toBe(true);
    expect(runs).not.toHaveBeenCalled();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(runs.mock.calls.map(([item]) => item.key)).toEqual(["u0", "u1", "u2", "u3", "u4"]);
    expect(actor.getSnapshot().context.done).toHaveLength(5);
  });

  it("does nothing when declined", () => {
    const { actor, runs } = start(async () => {});
    actor.send({ type: "bulk.decline" });
    expect(actor.getSnapshot().status).toBe("done");
    expect(runs).not.toHaveBeenCalled();
  });

  it("records failures with their reasons and carries on", async () => {
    const { actor } = start(async (item) => {
      if (item.key === "u1" || item.key === "u3") throw new Error(`Insufficient balance for ${item.label}`);
    });
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toEqual(["u0", "u2", "u4"]);
    expect(failed).toEqual([
      { key: "u1", label: "user1", reason: "Insufficient balance for user1" },
      { key: "u3", label: "user3", reason: "Insufficient balance for user3" },
    ]);
  });

  it("cancels after the item in flight and resumes without repeating any item", async () => {
    let release: () => void = () => {};
    const { actor, runs } = start(
      (item) =>
        new Promise<void>((resolve) => {
          if (item.key === "u1") release = resolve;
          else resolve();
        }),
    );
    actor.send({ type: "bulk.confirm" });
    await vi.waitFor(() => expect(runs).toHaveBeenCalledTimes(2));
    actor.send({ type: "bulk.cancel" });
    release();
    await waitFor(actor, (s) => s.hasTag("cancelled"));
    expect(actor.getSnapshot().context.done).toEqual(["u0", "u1"]);
    expect(remainingOf(actor.getSnapshot().context)).toBe(3);

    actor.send({ type: "bulk.resume" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(runs.mock.calls.map(([item]) => item.key)).toEqual(["u0", "u1", "u2", "u3", "u4"]);
    expect(runs.mock.calls.map(([item]) => item.requestId)).toEqual(["req-0", "req-1", "req-2", "req-3", "req-4"]);
  });

  it("an item whose answer was lost is marked unknown and never sent again, in a chunk or alone", async () => {
    const chunks: string[][] = [];
    const answers: Array<(chunk: BulkItem[]) => Promise<ItemResult[]>> = [
      // The chunk's own answer: u0 done, u1 refused, u2's answer lost upstream (a timeout).
      async () => [{ key: "u0" }, { key: "u1", error: "Bet already settled" }, { key: "u2", error: "Something went wrong", unknown: true }],
      // The whole chunk's answer lost on the way back.
      async () => {
        throw new Error("Failed to fetch");
      },
    ];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          runChunk: fromPromise(({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            chunks.push(input.items.map((item) => item.key));
            return answers[chunks.length - 1]!(input.items);
          }),
        },
      }),
      { input: { items, chunkSize: 3 } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toEqual(["u0"]);
    expect(failed).toEqual([
      { key: "u1", label: "user1", reason: "Bet already settled" },
      { key: "u2", label: "user2", reason: `${UNKNOWN_OUTCOME} (Something went wrong)`, unknown: true },
      { key: "u3", label: "user3", reason: `${UNKNOWN_OUTCOME} (Failed to fetch)`, unknown: true },
      { key: "u4", label: "user4", reason: `${UNKNOWN_OUTCOME} (Failed to fetch)`, unknown: true },
    ]);
    expect(chunks).toEqual([
      ["u0", "u1", "u2"],
      ["u3", "u4"],
    ]);
  });

  it("a stored job is written once when confirmed, before any item is sent, and every chunk carries its id", async () => {
    const order: string[] = [];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(async ({ input }: { input: { items: BulkItem[] } }): Promise<RecordedJob> => {
            order.push(`record ${input.items.length}`);
            return "job-1";
          }),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            order.push(`${input.jobId}: ${input.items.map((item) => item.key).join(",")}`);
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      { input: { items, chunkSize: 2, stored: true } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(order).toEqual(["record 5", "job-1: u0,u1", "job-1: u2,u3", "job-1: u4"]);
  });

  it("a job whose first chunks the server sent with it awaits their answers, sends only the rest under its id, and a cancel meanwhile still counts them (issue 35)", async () => {
    const sent: string[][] = [];
    let answerSecond: (results: ItemResult[]) => void = () => {};
    const second = new Promise<ItemResult[]>((resolve) => (answerSecond = resolve));
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(
            async (): Promise<RecordedJob> => ({
              id: "job-2",
              started: [Promise.resolve([{ key: "u0" }, { key: "u1", error: "Bet already settled" }]), second],
            }),
          ),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            expect(input.jobId).toBe("job-2");
            sent.push(input.items.map((item) => item.key));
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      { input: { items, chunkSize: 2, chunksInFlight: 2, stored: true } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    // The first started chunk answered: the window's free place goes to the third chunk, sent by the browser.
    await vi.waitFor(() => expect(sent).toEqual([["u4"]]));
    actor.send({ type: "bulk.cancel" });
    answerSecond([{ key: "u2" }, { key: "u3", error: "Something went wrong", unknown: true }]);
    await waitFor(actor, (s) => s.hasTag("finished") || s.hasTag("cancelled"));
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toEqual(["u0", "u4", "u2"]);
    expect(failed).toEqual([
      { key: "u1", label: "user1", reason: "Bet already settled" },
      { key: "u3", label: "user3", reason: `${UNKNOWN_OUTCOME} (Something went wrong)`, unknown: true },
    ]);
    expect(sent).toEqual([["u4"]]);
  });

  it("a cancel while a started job is recorded still takes its started chunks' answers, sends nothing more, and a lost one is unknown (issue 35)", async () => {
    let record: (job: RecordedJob) => void = () => {};
    const sent: string[][] = [];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(() => new Promise<RecordedJob>((resolve) => (record = resolve))),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            sent.push(input.items.map((item) => item.key));
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      { input: { items, chunkSize: 2, chunksInFlight: 2, stored: true } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    actor.send({ type: "bulk.cancel" });
    record({ id: "job-3", started: [Promise.resolve([{ key: "u0" }, { key: "u1" }]), Promise.reject(new Error("Failed to fetch"))] });
    await waitFor(actor, (s) => s.hasTag("cancelled"));
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toEqual(["u0", "u1"]);
    expect(failed.map(({ key, unknown }) => ({ key, unknown }))).toEqual([
      { key: "u2", unknown: true },
      { key: "u3", unknown: true },
    ]);
    expect(remainingOf(actor.getSnapshot().context)).toBe(1);
    expect(sent).toEqual([]);
  });

  it("a job four-eyes holds sends nothing: it ends held, with what the operator is told", async () => {
    let sent = 0;
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(async (): Promise<RecordedJob> => ({ held: "Sent for approval (four-eyes): more than 3 bets" })),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            sent += input.items.length;
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      { input: { items, stored: true } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("held"));
    expect(actor.getSnapshot().context.held).toBe("Sent for approval (four-eyes): more than 3 bets");
    expect(actor.getSnapshot().status).toBe("done");
    expect(sent).toBe(0);
  });

  it("a store that cannot be written does not stop the job: it runs unstored", async () => {
    const sent: Array<string | null> = [];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(async (): Promise<RecordedJob> => {
            throw new Error("The console's store is not open");
          }),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            sent.push(input.jobId);
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      { input: { items, stored: true } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(sent).toEqual([null, null, null, null, null]);
  });

  it("a resumed job starts from the answers recorded and sends only the items with none, under its id, writing nothing again", async () => {
    const record = vi.fn(async (): Promise<RecordedJob> => "another");
    const chunks: string[][] = [];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          recordJob: fromPromise(record),
          runChunk: fromPromise(async ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => {
            expect(input.jobId).toBe("job-7");
            chunks.push(input.items.map((item) => item.key));
            return input.items.map(({ key }) => ({ key }));
          }),
        },
      }),
      {
        input: {
          items,
          chunkSize: 2,
          stored: true,
          resumed: {
            jobId: "job-7",
            done: ["u0", "u3"],
            failed: [{ key: "u1", label: "user1", reason: `${UNKNOWN_OUTCOME}`, unknown: true }],
          },
        },
      },
    ).start();
    expect(remainingOf(actor.getSnapshot().context)).toBe(2);
    actor.send({ type: "bulk.confirm" });
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(chunks).toEqual([["u2", "u4"]]);
    expect(record).not.toHaveBeenCalled();
    const { done, failed } = actor.getSnapshot().context;
    expect(done).toEqual(["u0", "u3", "u2", "u4"]);
    expect(failed.map((failure) => failure.key)).toEqual(["u1"]);
  });

  it("keeps `chunksInFlight` chunks out at once, records each as it answers, and a cancel waits for both", async () => {
    const eight: BulkItem[] = Array.from({ length: 8 }, (_, i) => ({ key: `b${i}`, label: `bet${i}`, requestId: `b${i}` }));
    const pending: Array<{ keys: string[]; answer: () => void }> = [];
    const actor = createActor(
      bulkMachine.provide({
        actors: {
          runChunk: fromPromise(
            ({ input }: { input: { items: BulkItem[]; jobId: string | null } }) =>
              new Promise<ItemResult[]>((resolve) =>
                pending.push({ keys: input.items.map((item) => item.key), answer: () => resolve(input.items.map(({ key }) => ({ key }))) }),
              ),
          ),
        },
      }),
      { input: { items: eight, chunkSize: 2, chunksInFlight: 2 } },
    ).start();
    actor.send({ type: "bulk.confirm" });
    await vi.waitFor(() => expect(pending.map((chunk) => chunk.keys)).toEqual([["b0", "b1"], ["b2", "b3"]]));
    // The second chunk answers first: its items are recorded, and the next chunk goes out at once.
    pending[1]!.answer();
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    expect(actor.getSnapshot().context.done).toEqual(["b2", "b3"]);
    expect(remainingOf(actor.getSnapshot().context)).toBe(6);
    expect(pending[2]!.keys).toEqual(["b4", "b5"]);

    actor.send({ type: "bulk.cancel" });
    pending[0]!.answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().hasTag("cancelled")).toBe(false);
    pending[2]!.answer();
    await waitFor(actor, (s) => s.hasTag("cancelled"));
    expect(pending).toHaveLength(3);
    expect(actor.getSnapshot().context.done).toEqual(["b2", "b3", "b0", "b1", "b4", "b5"]);
    expect(remainingOf(actor.getSnapshot().context)).toBe(2);

    actor.send({ type: "bulk.resume" });
    await vi.waitFor(() => expect(pending).toHaveLength(4));
    expect(pending[3]!.keys).toEqual(["b6", "b7"]);
    pending[3]!.answer();
    await waitFor(actor, (s) => s.hasTag("finished"));
    expect(remainingOf(actor.getSnapshot().context)).toBe(0);
  });
});
