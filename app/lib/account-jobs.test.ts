/** The users desk's bulk commands as stored jobs (issue 19), run by the bulk machine with its actors provided. */
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { bulkMachine, chunkRunnerOf, type BulkItem, type RecordedJob } from "../machines/bulk.machine";
import { accountBulkJob, accountItemAction, type AccountItemPayload } from "./account-jobs";

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
    { input: { items: job.items, stored: job.stored !== undefined, resumed: job.resumed } },
  ).start();
  actor.send({ type: "bulk.confirm" });
  return waitFor(actor, (s) => s.hasTag("finished"));
}

describe("a bulk account job", () => {
  it("is stored with each item's exact form, and every post carries the job's id", async () => {
    const posts: Array<[string, Record<string, string>]> = [];
    const job = accountBulkJob({
      title: "Bulk deposit",
      question: "Deposit?",
      kind: "deposit",
      items,
      submit: async (path, values) => (posts.push([path, values]), { ok: true, message: "Deposit added" }),
    });
    expect(job.stored?.kind).toBe("deposit");
    expect(job.stored?.payloadOf(job.items[1]!)).toEqual(items[1]!.payload);
    await run(job, "job-1");
    expect(posts).toEqual(items.map((item) => ["/users", { ...item.payload.form, jobId: "job-1" }]));
  });

  it("resumed, sends only the items with no answer, never the answered ones, under its id", async () => {
    const sent: string[] = [];
    const job = accountBulkJob({
      title: "Bulk deposit",
      question: "",
      kind: "deposit",
      items,
      submit: async (_path, values) => (sent.push(`${values.user} ${values.jobId}`), { ok: true, message: "" }),
      resumed: { jobId: "job-2", done: ["u1"], failed: [{ key: "u2", label: "u2", reason: "Unknown: check before retrying", unknown: true }] },
    });
    const finished = await run(job, null);
    expect(sent).toEqual(["u3 job-2"]);
    expect(finished.context.done).toEqual(["u1", "u3"]);
  });

  it("a refusal is that item's failure with the server's message", async () => {
    const job = accountBulkJob({
      title: "Bulk withdraw",
      question: "",
      kind: "withdraw",
      items,
      submit: async (_path, values) => (values.user === "u2" ? { ok: false, message: "Insufficient balance" } : { ok: true, message: "" }),
    });
    const finished = await run(job, "job-3");
    expect(finished.context.failed).toEqual([{ key: "u2", label: "u2", reason: "Insufficient balance" }]);
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
