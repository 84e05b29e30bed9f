/**
 * The audit trail in the console's store: appending to the hash chain, checking it, and reading it
 * page by page. Each entry's hash covers its fields and the hash before it, so an edited or a
 * deleted row breaks the chain from there on (ADR 0008).
 */
import { createHash } from "node:crypto";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import { groupCommit } from "../../../db/group-commit";
import { metrics } from "../observability/metrics.server";
import type { AuditOutcome, ConsoleDatabase, ConsoleStore } from "./schema";

/** What the recorder knows of one action; the store adds its place in the chain. */
export type AuditDraft = {
  operator: string;
  operatorRole: number | null;
  /** A hash of the session's upstream token: the same for every action of one sign-in, never the token. */
  session: string | null;
  call: string;
  kind: string;
  accountId: string | null;
  accountName: string | null;
  amount: number | null;
  balanceBefore: number | null;
  balanceAfter: number | null;
  outcome: AuditOutcome;
  status: number | null;
  message: string;
  request: unknown;
  answer: unknown;
  /** The stored job whose item this action performed; absent or null otherwise. */
  jobId?: string | null;
  /** The trace id of the operator's request (its upstream calls' `traceparent`); absent or null outside one. */
  traceId?: string | null;
};

export type AuditEntry = AuditDraft & { seq: bigint; at: Date; prevHash: string; hash: string };

/**
 * JSON with object keys sorted at every depth (by UTF-16 code units), undefined fields left out: the same value
 * hashes the same after a jsonb round trip. Built by appending, as every entry of a settlement job passes here; an
 * object's keys are sorted once per set of keys (its shape) seen, not once per object (issue 35).
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + canonical(value[i]);
    return `${out}]`;
  }
  if (value && typeof value === "object") {
    const { order, names } = shapeOf(Object.keys(value));
    let out = "{";
    for (let i = 0; i < order.length; i++) {
      const field = (value as Record<string, unknown>)[order[i]!];
      if (field === undefined) continue;
      out += `${out.length > 1 ? "," : ""}${names[i]}${canonical(field)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value ?? null);
}

/** An object's keys in canonical order, each written as `"key":`; kept for the shapes seen first, up to SHAPES_KEPT. */
type Shape = { order: readonly string[]; names: readonly string[] };
const shapes = new Map<string, Shape>();
const SHAPES_KEPT = 1_000;

function shapeOf(keys: string[]): Shape {
  const id = JSON.stringify(keys);
  const kept = shapes.get(id);
  if (kept) return kept;
  const order = keys.sort();
  const shape = { order, names: order.map((key) => `${JSON.stringify(key)}:`) };
  if (shapes.size < SHAPES_KEPT) shapes.set(id, shape);
  return shape;
}

function hashOf(entry: Omit<AuditEntry, "hash">): string {
  const fields = [
    String(entry.seq), entry.at.toISOString(), entry.operator, entry.operatorRole, entry.session, entry.call, entry.kind,
    entry.accountId, entry.accountName, entry.amount, entry.balanceBefore, entry.balanceAfter, entry.outcome, entry.status,
    entry.message, entry.request, entry.answer, entry.prevHash,
    // Only when set: the entries written before the column existed hash as they did.
    ...(entry.jobId ? [entry.jobId] : []),
    ...(entry.traceId ? [{ traceId: entry.traceId }] : []),
  ];
  return createHash("sha256").update(canonical(fields)).digest("hex");
}

type Row = Selectable<ConsoleDatabase["console_audit"]>;

/** An entry as its row: `seq` as text, so the batch's JSON needs no replacer (jsonb_populate_recordset casts it back). */
const rowOf = (entry: AuditEntry) => ({
  seq: String(entry.seq),
  at: entry.at,
  operator: entry.operator,
  operator_role: entry.operatorRole,
  session: entry.session,
  call: entry.call,
  kind: entry.kind,
  account_id: entry.accountId,
  account_name: entry.accountName,
  amount: entry.amount,
  balance_before: entry.balanceBefore,
  balance_after: entry.balanceAfter,
  outcome: entry.outcome,
  status: entry.status,
  message: entry.message,
  request: entry.request,
  answer: entry.answer,
  prev_hash: entry.prevHash,
  hash: entry.hash,
  job_id: entry.jobId ?? null,
  trace_id: entry.traceId ?? null,
});

/** The columns an append writes (a request of JSON null, read as SQL null from the batch, is kept as JSON null). */
const COLUMNS = Object.keys(rowOf({} as AuditEntry)) as (keyof ReturnType<typeof rowOf>)[];

const entryOf = (row: Row): AuditEntry => ({
  seq: row.seq,
  at: row.at,
  operator: row.operator,
  operatorRole: row.operator_role,
  session: row.session,
  call: row.call,
  kind: row.kind,
  accountId: row.account_id,
  accountName: row.account_name,
  amount: row.amount,
  balanceBefore: row.balance_before,
  balanceAfter: row.balance_after,
  outcome: row.outcome,
  status: row.status,
  message: row.message,
  request: row.request,
  answer: row.answer ?? null,
  prevHash: row.prev_hash,
  hash: row.hash,
  jobId: row.job_id,
  traceId: row.trace_id,
});

/** Entries one append statement carries, as one JSON parameter. */
const APPEND_BATCH = 500;

type Head = { seq: bigint; hash: string };

/** The head each store last wrote or read: appends chain from it without reading it first. */
const heads = new WeakMap<ConsoleStore, Head>();

const readHead = (store: ConsoleStore): Promise<Head> =>
  store.selectFrom("console_audit_head").select(["seq", "hash"]).executeTakeFirstOrThrow();

/**
 * Appends entries in order, each in one statement: the chain's hashes are computed in memory from
 * the head this process last saw, and the statement moves the head on only if it is still that
 * one, inserting the entries with it. The head row's lock serialises the statements of every
 * connection and console instance; one that finds the head moved writes nothing, reads the new
 * head and chains again, so the chain never forks.
 */
export async function appendAuditBatch(store: ConsoleStore, drafts: readonly AuditDraft[]): Promise<AuditEntry[]> {
  const written: AuditEntry[] = [];
  for (let start = 0; start < drafts.length; start += APPEND_BATCH) {
    const timer = metrics.auditAppendDuration.startTimer();
    written.push(...(await appendChained(store, drafts.slice(start, start + APPEND_BATCH))));
    timer();
  }
  return written;
}

async function appendChained(store: ConsoleStore, drafts: readonly AuditDraft[]): Promise<AuditEntry[]> {
  for (let head = heads.get(store) ?? (await readHead(store)); ; head = await readHead(store)) {
    const at = new Date();
    let previous = head;
    const entries = drafts.map((draft): AuditEntry => {
      // One object an entry: its hash is made over every other field.
      const entry = { ...draft, request: draft.request ?? null, answer: draft.answer ?? null, seq: previous.seq + 1n, at, prevHash: previous.hash, hash: "" };
      entry.hash = hashOf(entry);
      previous = entry;
      return entry;
    });
    const rows = JSON.stringify(entries.map(rowOf));
    const { numAffectedRows } = await sql`
      with moved as (
        update console_audit_head set seq = ${previous.seq}, hash = ${previous.hash}
        where seq = ${head.seq} and hash = ${head.hash}
        returning seq
      )
      insert into console_audit (${sql.join(COLUMNS.map((column) => sql.ref(column)))})
      select ${sql.join(COLUMNS.map((column) => (column === "request" ? sql`coalesce(entry.request, 'null')` : sql.ref(`entry.${column}`))))}
      from moved, jsonb_populate_recordset(null::console_audit, ${rows}::jsonb) as entry`.execute(store);
    if (numAffectedRows === BigInt(entries.length)) {
      heads.set(store, { seq: previous.seq, hash: previous.hash });
      return entries;
    }
  }
}

const appenders = new WeakMap<ConsoleStore, (draft: AuditDraft) => Promise<AuditEntry>>();

/**
 * Appends one entry. Appends that arrive while a batch is being written wait and go together as
 * the next one (group commit, ADR 0009): a chunk of settlements in flight costs one statement,
 * not one each. An entry shares its batch's fate: a failed statement writes none of them.
 */
export function appendAudit(store: ConsoleStore, draft: AuditDraft): Promise<AuditEntry> {
  let append = appenders.get(store);
  if (!append) {
    append = groupCommit(
      async (drafts: AuditDraft[]) => (await appendAuditBatch(store, drafts)).map((value) => ({ ok: true as const, value })),
      { maxBatch: APPEND_BATCH },
    );
    appenders.set(store, append);
  }
  return append(draft);
}

export type ChainCheck =
  | { ok: true; entries: bigint; head: string }
  /** `seq`: the first entry that is not as it was written (edited, or missing: deleted). */
  | { ok: false; seq: bigint; problem: string };

const VERIFY_BATCH = 1000;

/**
 * Walks the chain in order, recomputing every hash, in one repeatable-read snapshot: consoles
 * appending meanwhile (on PostgreSQL) move neither the head it compares with nor the rows it reads.
 */
export function verifyAudit(store: ConsoleStore): Promise<ChainCheck> {
  return store.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(verifySnapshot);
}

async function verifySnapshot(store: ConsoleStore): Promise<ChainCheck> {
  const head = await readHead(store);
  let expected = { seq: 1n, prevHash: "0".repeat(64) };
  for (;;) {
    const rows = await store
      .selectFrom("console_audit")
      .selectAll()
      .where("seq", ">=", expected.seq)
      .orderBy("seq")
      .limit(VERIFY_BATCH)
      .execute();
    for (const entry of rows.map(entryOf)) {
      if (entry.seq !== expected.seq) return { ok: false, seq: expected.seq, problem: `entry ${expected.seq} is missing (deleted)` };
      if (entry.prevHash !== expected.prevHash) {
        return { ok: false, seq: expected.seq - 1n, problem: `entry ${expected.seq - 1n} was edited: entry ${entry.seq} does not follow it` };
      }
      if (hashOf(entry) !== entry.hash) return { ok: false, seq: entry.seq, problem: `entry ${entry.seq} was edited` };
      expected = { seq: entry.seq + 1n, prevHash: entry.hash };
    }
    if (rows.length < VERIFY_BATCH) break;
  }
  const last = expected.seq - 1n;
  if (head.seq > last) return { ok: false, seq: last + 1n, problem: `entries ${last + 1n} to ${head.seq} are missing (deleted)` };
  if (head.seq < last || head.hash !== expected.prevHash) return { ok: false, seq: head.seq, problem: `the chain's head does not match entry ${last}` };
  return { ok: true, entries: last, head: head.hash };
}

export type AuditFilter = {
  operator?: string;
  /** Done to or by this account: its username as operator or target, or one of its ids. */
  account?: { name: string; ids: readonly string[] };
  call?: string;
  outcome?: AuditOutcome;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** The entries of one stored job's items. */
  job?: string;
};

function matching(filter: AuditFilter) {
  return (eb: ExpressionBuilder<ConsoleDatabase, "console_audit">) => {
    const { account } = filter;
    return eb.and([
      ...(filter.operator ? [eb("operator", "=", filter.operator)] : []),
      ...(account
        ? [
            eb.or([
              eb("operator", "=", account.name),
              eb("account_name", "=", account.name),
              eb("account_id", "=", account.name),
              ...(account.ids.length ? [eb("account_id", "in", account.ids)] : []),
            ]),
          ]
        : []),
      ...(filter.call ? [eb("call", "=", filter.call)] : []),
      ...(filter.outcome ? [eb("outcome", "=", filter.outcome)] : []),
      ...(filter.from ? [eb("at", ">=", filter.from)] : []),
      ...(filter.to ? [eb("at", "<", filter.to)] : []),
      ...(filter.job ? [eb("job_id", "=", filter.job)] : []),
    ]);
  };
}

/** Newest first. */
export async function listAudit(store: ConsoleStore, filter: AuditFilter, slice: { limit: number; offset: number }): Promise<AuditEntry[]> {
  const rows = await store
    .selectFrom("console_audit")
    .selectAll()
    .where(matching(filter))
    .orderBy("seq", "desc")
    .limit(slice.limit)
    .offset(slice.offset)
    .execute();
  return rows.map(entryOf);
}

export const filtersSomething = (filter: AuditFilter) => Object.values(filter).some((value) => value !== undefined);

/**
 * How many entries match, counting no further than `atMost` (one past it means "more"): a count of
 * a million rows costs hundreds of milliseconds, a screen's page of them a few. With no filter the
 * chain's head says it exactly, at once: the trail is append-only, its entries numbered from 1.
 */
export async function countAudit(store: ConsoleStore, filter: AuditFilter, atMost = Number.MAX_SAFE_INTEGER): Promise<number> {
  if (!filtersSomething(filter)) return Number((await readHead(store)).seq);
  const matches = store.selectFrom("console_audit").select("seq").where(matching(filter));
  const { count } = await store
    .selectFrom((atMost < Number.MAX_SAFE_INTEGER ? matches.limit(atMost + 1) : matches).as("found"))
    .select(sql<string>`count(*)`.as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The calls the trail holds, for the call filter's choices. */
export async function auditCalls(store: ConsoleStore): Promise<string[]> {
  const rows = await store.selectFrom("console_audit").select("call").distinct().orderBy("call").execute();
  return rows.map((row) => row.call);
}
