/**
 * The browser's side of stored jobs (issue 19): writing a confirmed job to the console's store,
 * and resuming one from it (the server first checks what was in flight when it stopped).
 */
import type { BulkFailure, BulkItem, JobKind, Resumed } from "../machines/bulk.machine";
import { UNKNOWN_OUTCOME, type BulkJob, type RecordedJob } from "../machines/bulk.machine";
import { MESSAGES } from "./constants";
import { askForFactor, asksForFactor } from "./second-factor-client";

export const JOBS_ENDPOINT = "/resources/jobs";

async function post<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  // Starting a job needs a recent second factor: asked where the operator is, then sent again.
  if (asksForFactor(answer) && (await askForFactor())) return post(url, body);
  if (!response.ok || !answer) throw new Error(answer?.message ?? MESSAGES.fallback);
  return answer;
}

/**
 * Writes a confirmed job with what each item sends; answers its id, null for a job that is not
 * stored, or `held` when four-eyes keeps it for a second operator (issue 19).
 */
export async function storeJob(job: BulkJob): Promise<RecordedJob> {
  if (!job.stored) return null;
  const { kind, payloadOf, file } = job.stored;
  const items = job.items.map((item) => ({ ...item, payload: payloadOf(item) }));
  const answer = await post<{ id?: string; held?: string }>(JOBS_ENDPOINT, { kind, title: job.title, items, file });
  return answer.held !== undefined ? { held: answer.held } : (answer.id ?? null);
}

/** A stored item as a resume answers it. */
export type StoredItem = BulkItem & { payload: unknown; sent: boolean; outcome: "done" | "refused" | "unknown" | "conflict" | null; message: string | null };
export type StoredJob = { id: string; kind: JobKind; title: string; items: StoredItem[] };

/** Asks the server to check the job's items in flight; answers every item as it now stands. */
export const resumeStoredJob = async (id: string): Promise<StoredJob> =>
  (await post<{ job: StoredJob }>(`${JOBS_ENDPOINT}/${encodeURIComponent(id)}/resume`)).job;

/** The answers a stored job already has, as the runner starts from them. */
export function resumedOf(job: StoredJob): Resumed {
  const done: string[] = [];
  const failed: BulkFailure[] = [];
  for (const { key, label, outcome, message } of job.items) {
    if (outcome === "done") done.push(key);
    else if (outcome === "refused") failed.push({ key, label, reason: message ?? "" });
    else if (outcome === "conflict") failed.push({ key, label, reason: message ?? "", conflict: true });
    else if (outcome === "unknown") failed.push({ key, label, reason: message === UNKNOWN_OUTCOME ? message : `${UNKNOWN_OUTCOME} (${message})`, unknown: true });
  }
  return { jobId: job.id, done, failed };
}
