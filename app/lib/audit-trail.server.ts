/**
 * The /audit screen on the server: who may read the trail (role 1, staff with `report`), its
 * filters (a time range in the console's TIME_ZONE), a page of it, its CSV, and the palette's `!`.
 */
import type { AppLoadContext } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { csvText } from "../../protocol/csv";
import { PAGE_SIZE, type Page } from "../../protocol/wire";
import { searchAccounts } from "./accounts.server";
import { callLabel, entrySubject } from "./audit-labels";
import { auditFailures } from "./audit.server";
import { env } from "./env.server";
import { wallTimeAt } from "./late-window";
import { currentOperator, PERMISSION_DENIED, requireAccess, storeOf } from "./guards.server";
import { mayUse, SCREENS } from "./screens";
import { SEARCH_LIMIT } from "./search.server";
import { countAudit, filtersSomething, listAudit, type AuditEntry, type AuditFilter } from "./store/audit-log.server";
import { AUDIT_OUTCOMES } from "./store/schema";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const text = z.string().trim().max(64).optional().transform((value) => value || undefined).catch(undefined);

export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  operator: text,
  /** Done to or by this account: a username or an account id. */
  account: text,
  call: text,
  /** The entries of one stored job's items. */
  job: text,
  outcome: z.enum(AUDIT_OUTCOMES).optional().catch(undefined),
  /** Days in the console's zone, both included. */
  from: z.string().regex(DAY).optional().catch(undefined),
  to: z.string().regex(DAY).optional().catch(undefined),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** An entry as the browser gets it, with its call as the desks name it and what it acted on besides the account. */
export type AuditRow = Omit<AuditEntry, "seq" | "at" | "prevHash"> & { seq: string; at: string; label: string; subject: string | null };

const rowOf = ({ seq, at, prevHash: _prevHash, ...entry }: AuditEntry): AuditRow => ({
  ...entry,
  seq: String(seq),
  at: at.toISOString(),
  label: callLabel(entry.call),
  subject: entrySubject(entry.call, entry.request),
});

/** The trail is the house's: the same rule as the screen's row, checked on the server; null when refused. */
async function storeFor(request: Request, context: AppLoadContext) {
  if (!mayUse(SCREENS.audit, await currentOperator(request, context))) return null;
  return storeOf(context);
}

async function readableStore(request: Request, context: AppLoadContext) {
  await requireAccess(request, context, SCREENS.audit);
  return storeOf(context);
}

/** The ids of the accounts named exactly `name` (users and panels), so their entries are found by username. */
async function accountIdsOf(request: Request, context: AppLoadContext, name: string): Promise<string[]> {
  const { hits } = await searchAccounts(request, context, name);
  return hits.filter((hit) => hit.username === name).map((hit) => hit.id);
}

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

async function filterOf(request: Request, context: AppLoadContext, query: AuditQuery): Promise<AuditFilter> {
  const { operator, account, call, job, outcome, from, to } = query;
  return {
    operator,
    call,
    job,
    outcome,
    account: account ? { name: account, ids: await accountIdsOf(request, context, account) } : undefined,
    from: from ? new Date(wallTimeAt(from, [], env.TIME_ZONE)) : undefined,
    to: to ? new Date(wallTimeAt(nextDay(to), [], env.TIME_ZONE)) : undefined,
  };
}

const queryOf = (request: Request): AuditQuery => auditQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));

/** Matching entries counted at most; the trail unfiltered is counted whole (its head). */
export const AUDIT_COUNT_LIMIT = 10_000;

export async function loadAuditPage(request: Request, context: AppLoadContext) {
  const store = await readableStore(request, context);
  const query = queryOf(request);
  const filter = await filterOf(request, context, query);
  const pageSize = PAGE_SIZE.default;
  const [entries, counted] = await Promise.all([
    listAudit(store, filter, { limit: pageSize, offset: (query.page - 1) * pageSize }),
    countAudit(store, filter, AUDIT_COUNT_LIMIT),
  ]);
  // Filtered past the limit, the screen says "10000+" and pages that far: narrower filters reach further back.
  const more = filtersSomething(filter) && counted > AUDIT_COUNT_LIMIT;
  const list: Page<AuditRow> = { items: entries.map(rowOf), total: more ? AUDIT_COUNT_LIMIT : counted, page: query.page, pageSize };
  return { query, list, more, failures: auditFailures() };
}

export type AuditPageData = Awaited<ReturnType<typeof loadAuditPage>>;

/** The most rows one CSV holds; narrow the filters for more. */
const CSV_LIMIT = 100_000;
const CSV_COLUMNS = [
  "seq", "at", "operator", "operatorRole", "session", "label", "call", "kind", "accountId", "accountName", "subject", "amount",
  "balanceBefore", "balanceAfter", "outcome", "status", "message", "request", "answer", "jobId", "hash",
] as const;

/** The filtered trail as CSV, newest first; the request and answer as JSON. */
export async function downloadAudit(request: Request, context: AppLoadContext): Promise<Response> {
  const store = await readableStore(request, context);
  const entries = await listAudit(store, await filterOf(request, context, queryOf(request)), { limit: CSV_LIMIT, offset: 0 });
  const records = entries.map(rowOf).map((row) =>
    CSV_COLUMNS.map((column) => {
      const value = row[column];
      return value !== null && typeof value === "object" ? JSON.stringify(value) : value;
    }),
  );
  // Requests and answers carry what operators and users typed: no cell may run in a spreadsheet.
  return new Response(stringify(records, { header: true, columns: [...CSV_COLUMNS], cast: { string: csvText } }), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="audit-trail.csv"' },
  });
}

/** `!` in the palette: the newest entries done to or by the account named (or the operator). */
export type AuditHit = Pick<AuditRow, "seq" | "at" | "operator" | "label" | "outcome" | "accountId" | "accountName" | "subject" | "amount"> & {
  /** The name searched, so choosing a hit opens /audit on that account. */
  searched: string;
};

export async function searchAudit(request: Request, context: AppLoadContext, term: string): Promise<{ hits: AuditHit[]; message: string | null }> {
  const store = await storeFor(request, context);
  if (!store) return { hits: [], message: PERMISSION_DENIED };
  const entries = await listAudit(store, { account: { name: term, ids: await accountIdsOf(request, context, term) } }, { limit: SEARCH_LIMIT, offset: 0 });
  return {
    hits: entries.map(rowOf).map(({ seq, at, operator, label, outcome, accountId, accountName, subject, amount }) => ({
      seq, at, operator, label, outcome, accountId, accountName, subject, amount, searched: term,
    })),
    message: null,
  };
}
