/**
 * Bulk from file on the server (issue 34): the preview reads the file (bulk-file-parse.server.ts),
 * resolves every account with the spec's list calls read page by page, and names each line's
 * problem by the desk's own rules (the deposit form's amount and remark fields). Its answer is
 * sealed (HMAC with the session secret): the job stored from it must carry exactly its good lines,
 * so a line changed in the browser after the preview is refused, and the file's lines are kept
 * with the job for its result CSV (every line, its outcome, the balance before and after).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { PAGE_SIZE, ROLE, type UserRow } from "../../protocol/wire";
import { ACCOUNT_MODES, type AccountMode } from "./account-list";
import { listAudit } from "./store/audit-log.server";
import { FILE_COMMAND_NAMES, FILE_COMMANDS, FILE_ROW_LIMIT, fileItemForm, movesMoney, type FileCommand, type FileLine, type FilePreview, type JobFile } from "./bulk-file";
import { parseBulkFile, type FileRow } from "./bulk-file-parse.server";
import { capabilities } from "./capabilities.server";
import { env } from "./env.server";
import { formatMoney } from "./format";
import { amountField, remarkField } from "./forms/account-actions";
import { problemOf } from "./forms/first-issue";
import { requireAccess, storeOf } from "./guards.server";
import { ownerOf } from "./jobs.server";
import { PAGES_IN_FLIGHT, readAllPages, readEveryPage } from "./list.server";
import type { Operator } from "./operator";
import { SCREENS } from "./screens";
import { callAsOperator } from "./session.server";
import { jobItems, jobOf } from "./store/jobs.server";
import { inBatches } from "../machines/in-batches";

/** The largest file accepted, in bytes: 5,000 lines of account, amount and a 200-character remark fit well within it. */
const FILE_BYTES_LIMIT = 2 * 1024 * 1024;
/** Accounts looked up at once. */
const LOOKUPS_IN_FLIGHT = 8;

const previewRequestSchema = z.object({
  command: z.enum(FILE_COMMAND_NAMES as [FileCommand, ...FileCommand[]]),
  desk: z.enum(ACCOUNT_MODES),
  /** The pasted text, or a chosen file's bytes in base64 (the server decides whether they are text). */
  content: z.string().min(1, "The file is empty"),
  encoding: z.enum(["text", "base64"]),
});

type Account = NonNullable<FileLine["account"]>;
/** What a name in the file resolved to: an account of the desk, an account of the other desk, or nothing. */
export type Resolution = { account: Account } | "other desk" | "unknown";

const NOUN = { users: "user", partners: "panel" } as const;
const OTHER = { users: "partners", partners: "users" } as const satisfies Record<AccountMode, AccountMode>;

const toCents = (amount: number) => Math.round(amount * 100);

/**
 * Each line's account and problem (issue 34), pure: the first problem found, in this order:
 * no account named; unknown, of the other desk, or (for a partner, whose reads the API confines
 * to their tree) not in the tree; for money the amount and remark by the deposit form's own
 * fields, a withdrawal above the balance; a repeat of an account an earlier line named.
 */
export function classifyLines(
  input: { command: FileCommand; desk: AccountMode; by: "username" | "id"; rows: readonly FileRow[]; partner: boolean },
  resolve: (named: string) => Resolution,
): { lines: FileLine[]; total: number } {
  const { command, desk, by, rows, partner } = input;
  const money = movesMoney(command);
  const firstLineOf = new Map<string, number>();
  let cents = 0;
  const lines = rows.map((row): FileLine => {
    const base: FileLine = { line: row.line, named: row.account };
    if (!row.account) return { ...base, problem: `no ${by}` };
    const resolution = resolve(row.account);
    if (resolution === "unknown") return { ...base, problem: partner ? `not in your tree (or unknown ${NOUN[desk]})` : `unknown ${NOUN[desk]}` };
    if (resolution === "other desk") return { ...base, problem: `is a ${NOUN[OTHER[desk]]}, not a ${NOUN[desk]}` };
    const { account } = resolution;
    const line: FileLine = { ...base, account };
    if (money) {
      const amountProblem = problemOf(amountField, row.amount);
      if (amountProblem) return { ...line, problem: amountProblem };
      const remarkProblem = problemOf(remarkField, row.remark);
      if (remarkProblem) return { ...line, problem: remarkProblem };
      line.amount = amountField.parse(row.amount);
      line.remark = remarkField.parse(row.remark);
      if (command === "withdraw" && line.amount > account.balance) return { ...line, problem: `above the balance (${formatMoney(account.balance)})` };
    }
    const first = firstLineOf.get(account.id);
    if (first !== undefined) return { ...line, problem: `repeats the account of line ${first}` };
    firstLineOf.set(account.id, row.line);
    cents += money ? toCents(line.amount!) : 0;
    return line;
  });
  return { lines, total: cents / 100 };
}

type ListRow = Pick<UserRow, "_id" | "username" | "balance">;
const accountOf = (row: ListRow): Account => ({ id: row._id, username: row.username, balance: row.balance });

/**
 * A whole page of the list costs about as much upstream as this many one-name searches (at
 * 100,000 users on PGlite: 17–24 ms a page of 500, 6 ms a search; docs/benchmarks.md, "Bulk from file").
 */
const PAGE_COST_IN_SEARCHES = 4;

/** Accounts named in one lookup by the lists' `usernames` or `ids` (extension), at most. */
const NAMED_BATCH = 200;
/** A lookup's list, encoded, at most: with the rest of the address it stays within the 8 KB servers commonly take. */
const NAMED_LIST_CHARS = 7_000;
/** What a lookup may name: the names an address can carry in a comma-separated list. */
const LOOKABLE = /^[^,]{1,64}$/;

/** `names` cut into consecutive lookups of at most NAMED_BATCH names and NAMED_LIST_CHARS encoded characters. */
export function lookupsOf(names: readonly string[]): string[][] {
  const lookups: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const name of names) {
    // Each name with its encoded comma (%2C).
    const cost = encodeURIComponent(name).length + 3;
    if (current.length === NAMED_BATCH || (current.length > 0 && chars + cost > NAMED_LIST_CHARS)) {
      lookups.push(current);
      current = [];
      chars = 0;
    }
    current.push(name);
    chars += cost;
  }
  if (current.length > 0) lookups.push(current);
  return lookups;
}

/**
 * The accounts the file names, on the chosen desk and (for names not there) the other one. Where
 * the API has the lists' `usernames` or `ids` lookup (extension), 200 names a call; it is taken as
 * ignored, and never asked again, once an answer holds an account not named or more than were
 * (docs/protocol.md, "Spec calls and extensions"). Otherwise, and for names a lookup cannot carry,
 * with the spec's list calls, whichever costs fewer: each username by the list's username filter
 * (every page, kept when it is that exact username: the API's filter may match more), or the whole
 * list read page by page, a few at once, its second half from the end (ids are always read so:
 * the spec's list has no id filter). A whole reading that came out short of its total (the list
 * changed meanwhile, or the API ignored `page`) searches for each name it did not find.
 */
async function resolveAccounts(request: Request, context: AppLoadContext, desk: AccountMode, by: "username" | "id", names: readonly string[]) {
  const list =
    (mode: AccountMode, query: { username?: string; usernames?: string; ids?: string }, isAcc = true) =>
    (page: number, pageSize: number) =>
      mode === "users"
        ? callAsOperator(request, context, "users", { ...query, page, pageSize, orderBy: "username", isAcc })
        : callAsOperator(request, context, "partners", { ...query, page, pageSize, orderBy: "username", isAcc });
  const keyOf = (named: string) => (by === "username" ? named.toLowerCase() : named);
  const rowKey = (row: ListRow) => (by === "username" ? row.username.toLowerCase() : row._id);
  const lookup = by === "username" ? "usernames" : "ids";
  /** The accounts of `batch` by the lookup, or null when the answer showed the API ignores it. */
  const lookUp = async (mode: AccountMode, batch: readonly string[]): Promise<ListRow[] | null> => {
    const named = new Set(batch);
    const fetchPage = list(mode, { [lookup]: batch.join(",") });
    const first = await fetchPage(1, PAGE_SIZE.max);
    if (first.total > batch.length || first.items.some((row) => !named.has(rowKey(row)))) return null;
    if (first.items.length >= first.total) return first.items;
    const scan = await readAllPages(fetchPage, { keep: (row) => named.has(rowKey(row)) });
    return scan.complete && scan.dropped === 0 ? scan.items : null;
  };
  /** The names of `wanted` the lookup answered for, their accounts in `found`; none once the API ignores it. */
  const lookedUp = async (mode: AccountMode, wanted: readonly string[], found: Map<string, Account>): Promise<Set<string>> => {
    const answered = new Set<string>();
    const call = mode === "users" ? "users" : "partners";
    const lookable = wanted.filter((name) => LOOKABLE.test(name));
    await inBatches(lookupsOf(lookable), PAGES_IN_FLIGHT, async (batch) => {
      if (capabilities.lack(call, `${call}?${lookup}`)) return;
      const rows = await lookUp(mode, batch);
      if (!rows) return capabilities.learnIgnored(call, lookup, "answered accounts it was not asked for");
      for (const row of rows) found.set(rowKey(row), accountOf(row));
      for (const name of batch) answered.add(name);
    });
    return answered;
  };
  const find = async (mode: AccountMode, wanted: readonly string[]): Promise<Map<string, Account>> => {
    const found = new Map<string, Account>();
    const answered = await lookedUp(mode, wanted, found);
    const rest = wanted.filter((name) => !answered.has(name));
    if (rest.length === 0) return found;
    const wholeList = by === "id" || rest.length > Math.ceil((await list(mode, {})(1, 1)).total / PAGE_SIZE.max) * PAGE_COST_IN_SEARCHES;
    let unsearched = rest;
    if (wholeList) {
      const sought = new Set(rest);
      const scan = await readEveryPage(list(mode, {}), {
        inFlight: PAGES_IN_FLIGHT,
        keep: (row) => sought.has(rowKey(row)),
        fetchPageFromEnd: list(mode, {}, false),
      });
      for (const row of scan.items) found.set(rowKey(row), accountOf(row));
      unsearched = scan.complete || by === "id" ? [] : rest.filter((name) => !found.has(name));
    }
    await inBatches(unsearched, LOOKUPS_IN_FLIGHT, async (name) => {
      const scan = await readAllPages(list(mode, { username: name }), { limit: Number.POSITIVE_INFINITY, keep: (row) => row.username.toLowerCase() === name });
      if (scan.items[0]) found.set(name, accountOf(scan.items[0]));
    });
    return found;
  };
  const wanted = [...new Set(names.filter(Boolean).map(keyOf))];
  const onDesk = await find(desk, wanted);
  const elsewhere = await find(OTHER[desk], wanted.filter((name) => !onDesk.has(name)));
  return (named: string): Resolution => {
    const account = onDesk.get(keyOf(named));
    return account ? { account } : elsewhere.has(keyOf(named)) ? "other desk" : "unknown";
  };
}

type Sealed = Pick<FilePreview, "command" | "desk" | "lines">;
const sealOf = (operator: string, file: Sealed): string =>
  createHmac("sha256", env.sessionSecrets[0]!)
    .update(JSON.stringify([operator, file.command, file.desk, file.lines.map((line) => [line.line, line.named, line.account?.id, line.account?.username, line.account?.balance, line.amount, line.remark, line.problem])]))
    .digest("base64url");

/** A partner's deposits above their own balance refuse the whole file: nothing is skipped in silence. */
async function fundsProblem(request: Request, context: AppLoadContext, command: FileCommand, total: number): Promise<string | null> {
  if (command !== "deposit") return null;
  const { role, balance } = await callAsOperator(request, context, "currentAdmin", undefined);
  if (role !== ROLE.partner || balance === "unlimited" || toCents(total) <= toCents(balance)) return null;
  return `The deposits total ${formatMoney(total)}, above your balance of ${formatMoney(balance)}: the whole file is refused`;
}

/** POST /resources/bulk-file/preview: the file read and every line classified; nothing is stored or sent. */
export async function previewBulkFile(request: Request, context: AppLoadContext): Promise<Response> {
  const operator = await requireAccess(request, context, SCREENS.users);
  const parsed = previewRequestSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false, message: parsed.error.issues[0]!.message }, { status: 400 });
  const { command, desk, content, encoding } = parsed.data;
  const bytes = encoding === "base64" ? Buffer.from(content, "base64") : new TextEncoder().encode(content);
  if (bytes.length > FILE_BYTES_LIMIT) return Response.json({ ok: false, message: `The file is larger than ${FILE_BYTES_LIMIT / 1024 / 1024} MB` }, { status: 400 });
  const file = parseBulkFile(bytes);
  if ("refused" in file) return Response.json({ ok: false, message: file.refused }, { status: 400 });
  const resolve = await resolveAccounts(request, context, desk, file.by, file.rows.map((row) => row.account));
  const { lines, total } = classifyLines({ command, desk, by: file.by, rows: file.rows, partner: operator.role === ROLE.partner }, resolve);
  const refusal = await fundsProblem(request, context, command, total);
  const sealed = { command, desk, lines };
  const preview: FilePreview & { refusal: string | null } = { ...sealed, total, seal: sealOf(operator.username, sealed), refusal };
  return Response.json({ ok: true, preview });
}


type FileJob = { kind: string; items: ReadonlyArray<{ key: string; requestId: string; payload?: unknown }>; file?: JobFile };

/**
 * Why a job from a file may not be stored (issue 34), or null: its lines must be the preview's as
 * sealed for this maker, its items exactly the good lines' forms, and a partner's deposits within
 * their balance now. A bulk deposit by a partner that is not from a file is held to the balance too.
 */
export async function fileJobRefusal(request: Request, context: AppLoadContext, maker: Operator, job: FileJob): Promise<string | null> {
  const { file } = job;
  if (file) {
    const expected = Buffer.from(sealOf(maker.username, file));
    const given = Buffer.from(file.seal);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "The file's lines differ from its preview: preview the file again";
    const good = file.lines.filter((line) => !line.problem && line.account);
    if (FILE_COMMANDS[file.command].kind !== job.kind || good.length !== job.items.length) return "The job's items are not the file's good lines: preview the file again";
    const differs = good.findIndex((line, index) => {
      const item = job.items[index]!;
      return item.key !== line.account!.id || JSON.stringify(item.payload) !== JSON.stringify(fileItemForm(file.command, file.desk, line, item.requestId));
    });
    if (differs >= 0) return `Line ${good[differs]!.line} changed after the preview: preview the file again`;
  }
  if (job.kind !== "deposit" || maker.role !== ROLE.partner) return null;
  const cents = job.items.reduce((sum, item) => sum + toCents(Number((item.payload as { form?: { amount?: string } })?.form?.amount ?? 0)), 0);
  return fundsProblem(request, context, "deposit", cents / 100);
}

/** The result CSV's columns. */
const RESULT_HEADER = ["line", "named", "account id", "username", "amount", "remark", "outcome", "message", "balance before", "balance after"];

/** A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a tab or CR first) starts with `'`, so it stays text. */
export const inertCell = (cell: string): string => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

/**
 * GET /resources/jobs/:id/result: every line of a job's file with its outcome (done, refused with
 * the API's message, unknown, conflict, or the preview's problem) and, where the audit trail's
 * entry of the item has them, the balance before and after. The maker's own job, or any for the
 * super admin, behind the /jobs screen's guard.
 */
export async function jobResultCsv(request: Request, context: AppLoadContext, id: string): Promise<Response> {
  await requireAccess(request, context, SCREENS.jobs);
  const store = storeOf(context);
  const { operator, everyone } = await ownerOf(request, context);
  const job = await jobOf(store, id, operator, everyone);
  if (!job) return new Response("No such job", { status: 404 });
  if (!job.file_lines) return new Response("This job was not made from a file", { status: 404 });
  const lines = job.file_lines as FileLine[];
  const items = new Map((await jobItems(store, id)).map((item) => [item.key, item]));
  const balances = new Map<string, { before: number | null; after: number | null }>();
  for (const entry of await listAudit(store, { job: id, outcome: "ok" }, { limit: FILE_ROW_LIMIT, offset: 0 })) {
    if (entry.accountId) balances.set(entry.accountId, { before: entry.balanceBefore, after: entry.balanceAfter });
  }
  const rows = lines.map((line) => {
    const item = line.account && !line.problem ? items.get(line.account.id) : undefined;
    const balance = line.account ? balances.get(line.account.id) : undefined;
    const outcome = line.problem ? ["not sent", line.problem] : item ? [item.outcome ?? (item.sent ? "in flight" : "not sent yet"), item.message ?? ""] : ["not sent", ""];
    const cells = [line.line, line.named, line.account?.id, line.account?.username, line.amount, line.remark, ...outcome, item && balance?.before, item && balance?.after];
    return cells.map((cell) => inertCell(cell === undefined || cell === null ? "" : String(cell)));
  });
  return new Response(stringify([RESULT_HEADER, ...rows]), {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="job-${id}-result.csv"` },
  });
}
