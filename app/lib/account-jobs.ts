/**
 * The users desk's bulk commands as stored jobs (issue 19): each item keeps the exact form it
 * posts (its requestId fixed when confirmed), so the same job is rebuilt from the store to resume
 * it after a reload or a restart. Its chunks name their items to the job route: the server sends
 * an item only if it claims it, sends what it stored for it, and records its answer.
 */
import { eachItem, type BulkItem, type BulkJob, type BulkPreview, type ItemResult, type Resumed } from "../machines/bulk.machine";
import { MESSAGES } from "./constants";
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

export const ACCOUNT_JOB_CHUNK_ENDPOINT = "/resources/accounts/job-items";
/** The most items one chunk of a stored job sends (the route refuses more). */
export const ACCOUNT_JOB_CHUNK_MAX = 50;
/** Five chunks or more a job, so its progress moves and a cancel stops soon; at most ACCOUNT_JOB_CHUNK_MAX items each. */
export const accountChunkSizeFor = (items: number) => Math.min(ACCOUNT_JOB_CHUNK_MAX, Math.max(1, Math.ceil(items / 5)));

/**
 * A chunk of a stored job, named by its items' keys (the server performs what it stored for each):
 * every item's answer. A chunk whose answer is lost throws: its items' outcomes are unknown.
 */
async function sendStoredChunk(jobId: string, items: readonly BulkItem[]): Promise<ItemResult[]> {
  const response = await fetch(ACCOUNT_JOB_CHUNK_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    // Signed out, the route redirects to the sign-in screen: an answer this chunk cannot read.
    redirect: "manual",
    body: JSON.stringify({ jobId, keys: items.map((item) => item.key) }),
  });
  const answer = (await response.json().catch(() => null)) as { results?: ItemResult[]; message?: string } | null;
  if (!response.ok || !answer?.results) throw new Error(answer?.message ?? MESSAGES.fallback);
  return answer.results;
}

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
  const sendEach = eachItem(async (item) => {
    const { path, form } = payloads.get(item.key)!;
    const outcome = await job.submit(path, form);
    if (!outcome.ok) throw new Error(outcome.message);
  });
  return {
    title: job.title,
    question: job.question,
    preview: job.preview,
    items: job.items.map(({ key, label, requestId }) => ({ key, label, requestId })),
    stored: { kind: job.kind, payloadOf: (item) => payloads.get(item.key), file: job.file },
    resumed: job.resumed,
    chunkSize: accountChunkSizeFor(job.items.length),
    // A stored job's chunks go to the job route; a job the store could not keep, item by item to the desk's action.
    performChunk: (items, jobId) => (jobId ? sendStoredChunk(jobId, items) : sendEach(items, null)),
  };
}
