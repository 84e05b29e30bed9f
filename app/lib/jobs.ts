/**
 * The browser's side of stored jobs (issue 19): writing a confirmed job to the console's store,
 * and resuming one from it (the server first checks what was in flight when it stopped).
 */
import type { BulkFailure, BulkItem, ItemResult, JobKind, Resumed, StartedJob } from "../machines/bulk.machine";
import { UNKNOWN_OUTCOME, type BulkJob, type RecordedJob } from "../machines/bulk.machine";
import { MESSAGES } from "./constants";
import { askForFactor, asksForFactor } from "./second-factor-client";

export const JOBS_ENDPOINT = "/resources/jobs";

/** The type of a started job's answer (a line of JSON each, job-checks.server.ts `startedSettlement`). */
export const LINES_TYPE = "application/x-ndjson";

/** Posts JSON; `lines` reads an answer of lines of JSON instead, where the server sent one. */
async function post<T>(url: string, body?: unknown, lines?: (response: Response) => Promise<T>): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: lines ? `${LINES_TYPE}, application/json` : "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (lines && response.ok && response.headers.get("Content-Type")?.startsWith(LINES_TYPE)) return lines(response);
  const answer = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  // Starting a job needs a recent second factor: asked where the operator is, then sent again.
  if (asksForFactor(answer) && (await askForFactor())) return post(url, body, lines);
  if (!response.ok || !answer) throw new Error(answer?.message ?? MESSAGES.fallback);
  return answer;
}

/**
 * Writes a confirmed job with what each item sends; answers its id, null for a job that is not
 * stored, or `held` when four-eyes keeps it for a second operator (issue 19). A job that starts its
 * window (`startsWindow`, a settlement's) has its first chunks sent by the server as it is stored
 * (issue 35): answered once its id is, with those chunks' answers to come.
 */
export async function storeJob(job: BulkJob): Promise<RecordedJob> {
  if (!job.stored) return null;
  const { kind, payloadOf, file, startsWindow } = job.stored;
  const items = job.items.map((item) => ({ ...item, payload: payloadOf(item) }));
  const start = startsWindow ? { chunkSize: job.chunkSize ?? 1, chunks: job.chunksInFlight ?? 1 } : undefined;
  const answer = await post<{ id?: string; held?: string } | StartedJob>(JOBS_ENDPOINT, { kind, title: job.title, items, file, start }, (response) =>
    startedOf(response, start?.chunks ?? 0),
  );
  if ("started" in answer) return answer;
  return answer.held !== undefined ? { held: answer.held } : (answer.id ?? null);
}

/** A line of a started job's answer: its id, then each started chunk's results or why it has none. */
export type StartedLine = { id: string | null } | { chunk: number; results: ItemResult[] } | { chunk: number; message: string };

/**
 * A started job's answer, read line by line: its id first, then each started chunk's results. An answer cut off
 * before the id is a job whose first chunks were sent (the server answers only once they are) and whose other items
 * may not be stored: those chunks' outcomes are unknown, and the rest runs unstored.
 */
async function startedOf(response: Response, chunks: number): Promise<StartedJob> {
  const answers = Array.from({ length: chunks }, () => {
    let settle!: { resolve: (results: ItemResult[]) => void; reject: (error: Error) => void };
    const promise = new Promise<ItemResult[]>((resolve, reject) => (settle = { resolve, reject }));
    // Awaited by the runner once it takes the chunk; never an unhandled rejection if it does not.
    promise.catch(() => undefined);
    return { promise, ...settle };
  });
  const lines = linesOf(response);
  const cutOff = (error: unknown) => answers.forEach((answer) => answer.reject(error instanceof Error ? error : new Error(MESSAGES.fallback)));
  const first = await lines.next().catch((error: unknown) => (cutOff(error), null));
  const id = first && !first.done && "id" in first.value ? first.value.id : null;
  if (!first || first.done) cutOff(new Error(MESSAGES.fallback));
  else
    void (async () => {
      try {
        for await (const line of lines) {
          if (!("chunk" in line) || !answers[line.chunk]) continue;
          if ("results" in line) answers[line.chunk]!.resolve(line.results);
          else answers[line.chunk]!.reject(new Error(line.message));
        }
        cutOff(new Error(MESSAGES.fallback));
      } catch (error) {
        cutOff(error);
      }
    })();
  return { id, started: answers.map((answer) => answer.promise) };
}

/** The JSON values of an answer's lines, as they arrive. */
async function* linesOf(response: Response): AsyncGenerator<StartedLine> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (line) yield JSON.parse(line) as StartedLine;
    }
  }
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
