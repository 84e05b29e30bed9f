/**
 * The users desk's bulk commands as stored jobs (issue 19): each item keeps the exact form it
 * posts (its requestId fixed when confirmed), so the same job is rebuilt from the store to resume
 * it after a reload or a restart. Each post carries the job's id: the server sends the item only
 * if it claims it, and records its answer.
 */
import type { BulkItem, BulkJob, BulkPreview, Resumed } from "../machines/bulk.machine";
import type { Outcome } from "./feedback";
import { accountActionSchema, type AccountAction } from "./forms/account-actions";

export const ACCOUNT_JOB_KINDS = ["deposit", "withdraw", "switch"] as const;
export type AccountJobKind = (typeof ACCOUNT_JOB_KINDS)[number];
/** What one item posts: the desk's action and its form. */
export type AccountItemPayload = { path: string; form: Record<string, string> };

export const isAccountJobKind = (kind: string): kind is AccountJobKind => (ACCOUNT_JOB_KINDS as readonly string[]).includes(kind);

/** The desk each item posts to, by whether its account is a panel. */
const PATH_OF = { users: "/users", partners: "/partners" } as const;

/**
 * A stored item's action as the server reads it (issue 19): its form through the desk's own
 * schema, of the job's kind, on the item's account, posted to that account's desk and, for money,
 * under the item's requestId. Null when it is anything else: the server never performs it.
 */
export function accountItemAction(kind: AccountJobKind, item: { key: string; requestId: string; payload?: unknown }): AccountAction | null {
  const payload = item.payload as Partial<AccountItemPayload> | null;
  if (typeof payload !== "object" || payload === null || typeof payload.form !== "object" || payload.form === null) return null;
  const parsed = accountActionSchema.safeParse({ ...payload.form, flags: [] });
  if (!parsed.success) return null;
  const action = parsed.data;
  const sameRequest = action.intent === "switch" || ("requestId" in action && action.requestId === item.requestId);
  const path = action.isPartner ? PATH_OF.partners : PATH_OF.users;
  return action.intent === kind && action.user === item.key && payload.path === path && sameRequest ? action : null;
}
export type Submit = (action: string, values: Record<string, string>) => Promise<Outcome>;

export function accountBulkJob(job: {
  title: string;
  question: string;
  kind: AccountJobKind;
  items: ReadonlyArray<BulkItem & { payload: AccountItemPayload }>;
  submit: Submit;
  resumed?: Resumed;
  /** A job from a file (issue 34): its lines shown with the question, and sent with the job (`file`). */
  preview?: BulkPreview;
  file?: unknown;
}): BulkJob {
  const payloads = new Map(job.items.map((item) => [item.key, item.payload]));
  return {
    title: job.title,
    question: job.question,
    preview: job.preview,
    items: job.items.map(({ key, label, requestId }) => ({ key, label, requestId })),
    stored: { kind: job.kind, payloadOf: (item) => payloads.get(item.key), file: job.file },
    resumed: job.resumed,
    perform: async (item, jobId) => {
      const { path, form } = payloads.get(item.key)!;
      const outcome = await job.submit(path, jobId ? { ...form, jobId } : form);
      if (!outcome.ok) throw new Error(outcome.message);
    },
  };
}
