/**
 * Bulk and settlement jobs in the console's store (issue 19, ADR 0009): written when confirmed,
 * each item marked sent before its upstream call and answered after it. An item is claimed for
 * sending by one conditional update, so it goes upstream at most once whatever the browser asks,
 * on any number of console instances; only a resume's in-flight check may reopen it.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { ConsoleStore, JobOutcome } from "./schema";

export type JobItemDraft = { key: string; label: string; requestId: string; payload?: unknown };
/** `fileLines`: a job made from a file keeps the file's lines as previewed (issue 34). */
export type JobDraft = { operator: string; kind: string; title: string; items: readonly JobItemDraft[]; fileLines?: unknown };
export type ItemAnswer = { key: string; outcome: JobOutcome; message: string };

export type JobItem = JobItemDraft & { sent: boolean; outcome: JobOutcome | null; message: string | null };
export type JobSummary = {
  id: string;
  operator: string;
  kind: string;
  title: string;
  created: Date;
  total: number;
  done: number;
  refused: number;
  unknown: number;
  /** Found settled otherwise by someone else when resumed (issue 29). */
  conflict: number;
  /** Sent with no answer: in flight, or the console stopped before the answer was written. */
  inFlight: number;
  /** The last time an item was sent or answered (its creation before any): how home tells a job making no progress. */
  lastActivity: Date;
  /** Made from a file: /jobs offers its result CSV (issue 34). */
  hasResult: boolean;
};

/**
 * Writes a confirmed job and every item; answers its id. The items go as one JSON parameter (a
 * settlement job's thousand rows are one statement to parse, not six thousand parameters; issue 35).
 */
export async function createJob(store: ConsoleStore, draft: JobDraft): Promise<string> {
  const id = randomUUID();
  const items = await store.transaction().execute(async (trx) => {
    await insertJob(trx, id, draft);
    return insertItems(trx, id, draft.items, 0, null);
  });
  rememberWritten(store, id, items, { first: true });
  return id;
}

/**
 * Writes a confirmed job with only its first `count` items, claimed as they are written (marked sent, as
 * `claimItems` would), so that they go upstream at once; `addJobItems` writes the others meanwhile (issue 35,
 * ADR 0009). Answers the job's id and its claimed items.
 */
export async function createJobClaimingFirst(store: ConsoleStore, draft: JobDraft, count: number): Promise<{ id: string; claimed: JobItem[] }> {
  const id = randomUUID();
  const claimed = await store.transaction().execute(async (trx) => {
    await insertJob(trx, id, draft);
    return insertItems(trx, id, draft.items.slice(0, count), 0, new Date());
  });
  rememberWritten(store, id, claimed, { first: true });
  return { id, claimed };
}

/** Writes more of a job's items, the first of them at `position`; `claimed`: marked sent as written, and answered. */
export async function addJobItems(store: ConsoleStore, jobId: string, items: readonly JobItemDraft[], position: number, { claimed = false } = {}): Promise<JobItem[]> {
  const written = items.length > 0 ? await insertItems(store, jobId, items, position, claimed ? new Date() : null) : [];
  rememberWritten(store, jobId, written, { first: false });
  return written;
}

const insertJob = (trx: ConsoleStore, id: string, draft: JobDraft) =>
  trx
    .insertInto("console_jobs")
    .values({ id, operator: draft.operator, kind: draft.kind, title: draft.title, file_lines: draft.fileLines === undefined ? undefined : JSON.stringify(draft.fileLines) })
    .execute();

/** Items from `first` on, marked sent at `sentAt` (claimed) or not; answers them as written. */
async function insertItems(trx: ConsoleStore, id: string, items: readonly JobItemDraft[], first: number, sentAt: Date | null): Promise<JobItem[]> {
  const rows = JSON.stringify(
    items.map((item, i) => ({ position: first + i, key: item.key, label: item.label, request_id: item.requestId, payload: item.payload ?? null })),
  );
  // A payload of JSON null is read as SQL null from the document, and kept as JSON null.
  await sql`
    insert into console_job_items (job_id, position, key, label, request_id, payload, sent_at)
    select ${id}, item.position, item.key, item.label, item.request_id, coalesce(item.payload, 'null'), ${sentAt}::timestamptz
      from jsonb_to_recordset(${rows}::jsonb) as item (position integer, key text, label text, request_id text, payload jsonb)`.execute(trx);
  // Each row or none is written (a key twice fails the statement): the items are the drafts, not read back.
  return items.map((item) => ({ ...item, payload: item.payload ?? null, sent: sentAt !== null, outcome: null, message: null }));
}

/** The job if it is this operator's (a super admin's `anyOperator` reaches everyone's). */
export async function jobOf(store: ConsoleStore, id: string, operator: string, anyOperator = false) {
  const job = await store.selectFrom("console_jobs").selectAll().where("id", "=", id).executeTakeFirst();
  return job && (anyOperator || job.operator === operator) ? job : undefined;
}

/**
 * Marks these items sent and answers them, in one statement: an item already sent or answered is
 * not among them, so it is not sent again.
 */
export async function claimItems(store: ConsoleStore, jobId: string, keys: readonly string[]): Promise<JobItem[]> {
  if (keys.length === 0) return [];
  const claim = store
    .updateTable("console_job_items")
    .set({ sent_at: new Date() })
    .where("job_id", "=", jobId)
    .where("key", "in", keys)
    .where("sent_at", "is", null)
    .where("outcome", "is", null);
  const known = writtenHere.get(store)?.get(jobId);
  if (!known) return (await claim.returningAll().execute()).map(itemOf);
  // A job this process wrote: which items were claimed is all the store need answer.
  const claimed = (await claim.returning("key").execute()).map(({ key }) => key);
  const unknown = claimed.filter((key) => !known.has(key));
  const read = unknown.length > 0 ? new Map((await jobItems(store, jobId)).map((item) => [item.key, item])) : known;
  return claimed.map((key) => ({ ...(known.get(key) ?? read.get(key)!), sent: true, outcome: null, message: null }));
}

/**
 * The items of the jobs this process last wrote to each store, as written (an item's key, label, request id and payload never
 * change after): a claim of theirs reads back only which were claimed, not every payload, which took half of a
 * claim's time on PGlite (issue 35). Any other instance, or this one after a restart, reads them from the store.
 */
const writtenHere = new WeakMap<ConsoleStore, Map<string, Map<string, JobItem>>>();
const WRITTEN_JOBS_KEPT = 8;

function rememberWritten(store: ConsoleStore, jobId: string, items: readonly JobItem[], { first }: { first: boolean }) {
  let jobs = writtenHere.get(store);
  if (!jobs) writtenHere.set(store, (jobs = new Map()));
  let known = jobs.get(jobId);
  if (!known) {
    // A job written in parts is known only if its first part was written here.
    if (!first) return;
    known = new Map();
    jobs.set(jobId, known);
    if (jobs.size > WRITTEN_JOBS_KEPT) jobs.delete(jobs.keys().next().value!);
  }
  for (const item of items) known.set(item.key, item);
}

/**
 * Records answers; the first answer an item gets stands. Items answered alike (a chunk's settled
 * bets, all `done`) are written by one statement, all of them in one transaction. The store lowers
 * the job's count of unanswered items by those answered (migration 017).
 */
export async function recordAnswers(store: ConsoleStore, jobId: string, answers: readonly ItemAnswer[]): Promise<void> {
  if (answers.length === 0) return;
  const alike = new Map<string, { outcome: JobOutcome; message: string; keys: string[] }>();
  for (const { key, outcome, message } of answers) {
    const group = JSON.stringify([outcome, message]);
    if (!alike.has(group)) alike.set(group, { outcome, message, keys: [] });
    alike.get(group)!.keys.push(key);
  }
  const at = new Date();
  await store.transaction().execute(async (trx) => {
    for (const { outcome, message, keys } of alike.values()) {
      await trx
        .updateTable("console_job_items")
        .set({ outcome, message, answered_at: at })
        .where("job_id", "=", jobId)
        .where("key", "in", keys)
        .where("outcome", "is", null)
        .execute();
    }
  });
}

/** An in-flight item the API showed was not applied: it may be claimed and sent again. */
export async function reopenItem(store: ConsoleStore, jobId: string, key: string): Promise<void> {
  await store
    .updateTable("console_job_items")
    .set({ sent_at: null })
    .where("job_id", "=", jobId)
    .where("key", "=", key)
    .where("outcome", "is", null)
    .execute();
}

type ItemRow = {
  key: string;
  label: string;
  request_id: string;
  payload: unknown;
  sent_at: Date | null;
  outcome: JobOutcome | null;
  message: string | null;
};
const itemOf = (row: ItemRow): JobItem => ({
  key: row.key,
  label: row.label,
  requestId: row.request_id,
  payload: row.payload,
  sent: row.sent_at !== null,
  outcome: row.outcome,
  message: row.message,
});

/** A job's items in the order they were confirmed. */
export async function jobItems(store: ConsoleStore, jobId: string): Promise<JobItem[]> {
  const rows = await store.selectFrom("console_job_items").selectAll().where("job_id", "=", jobId).orderBy("position").execute();
  return rows.map(itemOf);
}

const count = (condition: ReturnType<typeof sql>) => sql<string>`count(*) filter (where ${condition})`;

/**
 * Jobs with an item still unanswered, newest first; one operator's, or everyone's when `operator`
 * is null. With `resultsSince`, also the jobs made from a file since then, finished or not: /jobs
 * offers their result CSV (issue 34). The jobs are found by their count of unanswered items, so
 * only their own items are read, however many finished jobs the store holds.
 */
export async function openJobs(store: ConsoleStore, operator: string | null, resultsSince?: Date): Promise<JobSummary[]> {
  let query = store
    .selectFrom("console_jobs as j")
    .innerJoin("console_job_items as i", "i.job_id", "j.id")
    .select([
      "j.id",
      "j.operator",
      "j.kind",
      "j.title",
      "j.created_at",
      sql<string>`count(*)`.as("total"),
      count(sql`i.outcome = 'done'`).as("done"),
      count(sql`i.outcome = 'refused'`).as("refused"),
      count(sql`i.outcome = 'unknown'`).as("unknown"),
      count(sql`i.outcome = 'conflict'`).as("conflict"),
      count(sql`i.outcome is null and i.sent_at is not null`).as("in_flight"),
      sql<Date | string>`greatest(j.created_at, max(i.sent_at), max(i.answered_at))`.as("last_activity"),
      sql<boolean>`bool_or(j.file_lines is not null)`.as("has_result"),
    ])
    .where((eb) =>
      eb.or([
        eb("j.unanswered", ">", 0),
        ...(resultsSince ? [eb.and([eb("j.file_lines", "is not", null), eb("j.created_at", ">=", resultsSince)])] : []),
      ]),
    )
    .groupBy(["j.id", "j.operator", "j.kind", "j.title", "j.created_at"])
    .orderBy("j.created_at", "desc");
  if (operator !== null) query = query.where("j.operator", "=", operator);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    operator: row.operator,
    kind: row.kind,
    title: row.title,
    created: row.created_at,
    total: Number(row.total),
    done: Number(row.done),
    refused: Number(row.refused),
    unknown: Number(row.unknown),
    conflict: Number(row.conflict),
    inFlight: Number(row.in_flight),
    lastActivity: new Date(row.last_activity),
    hasResult: Boolean(row.has_result),
  }));
}
