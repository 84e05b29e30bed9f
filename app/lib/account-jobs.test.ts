/** The users desk's bulk commands as stored jobs (issue 19), run by the bulk machine with its actors provided. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { bulkMachine, chunkRunnerOf, type BulkItem, type RecordedJob } from "../machines/bulk.machine";
import { ACCOUNT_JOB_CHUNK_ENDPOINT, accountBulkJob, accountChunkSizeFor, accountItemAction, type AccountItemPayload } from "./account-jobs";

const items = ["u1", "u2", "u3"].map((key) => ({
  key,
  label: key,
  requestId: `req-${key}`,
  payload: { path: "/users", form: { intent: "deposit", user: key, isPartner: "false", amount: "10", remark: "", requestId: `req-${key}` } } satisfies AccountItemPayload,
}));

function run(job: ReturnType<typeof accountBulkJob>, recorded: string | null) {
  const actor = createActor(
    bulkMachine.provide({
      actors: {
        runChunk: fromPromise(({ input }: { input: { items: BulkItem[]; jobId: string | null } }) => chunkRunnerOf(job)(input.items, input.jobId)),
        recordJob: fromPromise(async (): Promise<RecordedJob> => recorded),
      },
    }),
    { input: { items: job.items, chunkSize: job.chunkSize, stored: job.stored !== undefined, resumed: job.resumed } },
  ).start();
  actor.send({ type: "bulk.confirm" });
  return waitFor(actor, (s) => s.hasTag("finished"));
}

type Chunk = { jobId: string; keys: string[] };

/** The job route as the server answers it: each chunk's body recorded, `answer` its results (all done by default). */
function jobRoute(answer: (chunk: Chunk) => Response = (chunk) => Response.json({ results: chunk.keys.map((key) => ({ key })) })) {
  const chunks: Chunk[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    expect(url).toBe(ACCOUNT_JOB_CHUNK_ENDPOINT);
    const chunk = JSON.parse(String(init.body)) as Chunk;
    chunks.push(chunk);
    return answer(chunk);
  });
  return chunks;
}
afterEach(() => void vi.unstubAllGlobals());

const job = (overrides: Partial<Parameters<typeof accountBulkJob>[0]> = {}) =>
  accountBulkJob({ title: "Bulk deposit", question: "Deposit?", kind: "deposit", items, submit: async () => ({ ok: true, message: "" }), ...overrides });

describe("a bulk account job", () => {
  it("is stored with each item's exact form, and its chunks name their items under the job's id, never a form", async () => {
    const chunks = jobRoute();
    const posts: unknown[] = [];
    const bulk = job({ items: [...items, ...items.map((item) => ({ ...item, key: `${item.key}b` }))], submit: async (...post) => (posts.push(post), { ok: true, message: "" }) });
    expect(bulk.stored?.kind).toBe("deposit");
    expect(bulk.stored?.payloadOf(bulk.items[1]!)).toEqual(items[1]!.payload);
    expect(bulk.chunkSize).toBe(accountChunkSizeFor(6));
    const finished = await run(bulk, "job-1");
    expect(chunks).toEqual([
      { jobId: "job-1", keys: ["u1", "u2"] },
      { jobId: "job-1", keys: ["u3", "u1b"] },
      { jobId: "job-1", keys: ["u2b", "u3b"] },
    ]);
    expect(posts).toEqual([]);
    expect(finished.context.done).toHaveLength(6);
  });

  it("sends five chunks or more, of at most ACCOUNT_JOB_CHUNK_MAX items", () => {
    expect([1, 3, 5, 20, 249, 250, 251, 5_000].map(accountChunkSizeFor)).toEqual([1, 1, 1, 4, 50, 50, 50, 50]);
  });

  it("resumed, sends only the items with no answer, never the answered ones, under its id", async () => {
    const chunks = jobRoute();
    const finished = await run(job({ resumed: { jobId: "job-2", done: ["u1"], failed: [{ key: "u2", label: "u2", reason: "Unknown: check before retrying", unknown: true }] } }), null);
    expect(chunks).toEqual([{ jobId: "job-2", keys: ["u3"] }]);
    expect(finished.context.done).toEqual(["u1", "u3"]);
  });

  it("a refusal is that item's failure with the server's message; a lost answer leaves its chunk unknown", async () => {
    jobRoute((chunk) => Response.json({ results: chunk.keys.map((key) => (key === "u2" ? { key, error: "Insufficient balance" } : { key })) }));
    const refused = await run(job({ kind: "withdraw" }), "job-3");
    expect(refused.context.failed).toEqual([{ key: "u2", label: "u2", reason: "Insufficient balance" }]);

    jobRoute(() => new Response("Bad gateway", { status: 502 }));
    const lost = await run(job(), "job-4");
    expect(lost.context.failed.map((failure) => [failure.key, failure.unknown])).toEqual([
      ["u1", true],
      ["u2", true],
      ["u3", true],
    ]);
  });

  it("a job the store could not keep posts each item's own form to the desk", async () => {
    const chunks = jobRoute();
    const posts: Array<[string, Record<string, string>]> = [];
    await run(job({ submit: async (path, values) => (posts.push([path, values]), { ok: true, message: "" }) }), null);
    expect(chunks).toEqual([]);
    expect(posts).toEqual(items.map((item) => ["/users", item.payload.form]));
  });
});

describe("a stored item's action, as the server reads it", () => {
  const requestId = "3f1c2a9e-request";
  const item = { ...items[0]!, requestId, payload: { ...items[0]!.payload, form: { ...items[0]!.payload.form, requestId } } };
  const withForm = (form: Record<string, string>, path = "/users") => ({ ...item, payload: { path, form: { ...item.payload.form, ...form } } });

  it("is the desk's own action of the job's kind", () => {
    expect(accountItemAction("deposit", item)).toEqual({ intent: "deposit", user: "u1", isPartner: false, amount: 10, remark: undefined, requestId });
    expect(accountItemAction("switch", { ...item, payload: { path: "/partners", form: { intent: "switch", user: "u1", isPartner: "true", switch: "bet", on: "false" } } })).toMatchObject({
      intent: "switch",
      isPartner: true,
    });
  });

  it("is nothing when the item is anything else: another kind, account, desk or requestId, or no valid form", () => {
    expect(accountItemAction("withdraw", item)).toBeNull();
    expect(accountItemAction("deposit", withForm({ user: "u2" }))).toBeNull();
    expect(accountItemAction("deposit", withForm({}, "/partners"))).toBeNull();
    expect(accountItemAction("deposit", withForm({ requestId: "req-other" }))).toBeNull();
    expect(accountItemAction("deposit", withForm({ amount: "-5" }))).toBeNull();
    expect(accountItemAction("deposit", { ...item, payload: null })).toBeNull();
    expect(accountItemAction("deposit", { ...item, payload: { path: "/users", form: "intent=deposit" } })).toBeNull();
  });
});
