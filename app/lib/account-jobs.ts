/**
 * The users desk's bulk commands as stored jobs (issue 19): each item keeps the exact form it
 * posts (its requestId fixed when confirmed), so the same job is rebuilt from the store to resume
 * it after a reload or a restart. Each post carries the job's id: the server sends the item only
 * if it claims it, and records its answer.
 */
import type { BulkItem, BulkJob, Resumed } from "../machines/bulk.machine";
import type { Outcome } from "./feedback";

export type AccountJobKind = "deposit" | "withdraw" | "switch";
/** What one item posts: the desk's action and its form. */
export type AccountItemPayload = { path: string; form: Record<string, string> };
export type Submit = (action: string, values: Record<string, string>) => Promise<Outcome>;

export function accountBulkJob(job: {
  title: string;
  question: string;
  kind: AccountJobKind;
  items: ReadonlyArray<BulkItem & { payload: AccountItemPayload }>;
  submit: Submit;
  resumed?: Resumed;
}): BulkJob {
  const payloads = new Map(job.items.map((item) => [item.key, item.payload]));
  return {
    title: job.title,
    question: job.question,
    items: job.items.map(({ key, label, requestId }) => ({ key, label, requestId })),
    stored: { kind: job.kind, payloadOf: (item) => payloads.get(item.key) },
    resumed: job.resumed,
    perform: async (item, jobId) => {
      const { path, form } = payloads.get(item.key)!;
      const outcome = await job.submit(path, jobId ? { ...form, jobId } : form);
      if (!outcome.ok) throw new Error(outcome.message);
    },
  };
}
