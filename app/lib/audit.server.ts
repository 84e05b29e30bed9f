/**
 * What the audit trail records (issue 19, ADR 0008): every state-changing upstream call the
 * console makes, and sign-ins and sign-outs. The request is kept with its secrets redacted, the
 * answer as its status, message and scalar fields (the ids and balances it returned). A store that
 * fails never fails the action: the entry goes to the log instead, and /audit shows the count.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TransferResult, SportsBet } from "../../protocol/wire";
import type { AnswerOf, CallName, RequestOf } from "./api-routes.server";
import { ApiError, type Answered } from "./api.server";
import { currentLog, requestContext } from "./observability/context.server";
import { metrics } from "./observability/metrics.server";
import { appendAudit, appendAuditBatch, type AuditDraft } from "./store/audit-log.server";
import type { ConsoleStore } from "./store/schema";

/** Who acted: the operator's username and role, and a hash of the session (never its token). */
export type AuditActor = Pick<AuditDraft, "operator" | "operatorRole" | "session">;

type Subject = Partial<Pick<AuditDraft, "accountId" | "accountName" | "amount" | "balanceBefore" | "balanceAfter">>;

/** How the trail files an entry. */
export type AuditKind = "money" | "decision" | "settlement" | "permissions" | "password" | "accounts" | "settings" | "coupons" | "slider" | "staff";

type Rule<K extends CallName> = {
  kind: AuditKind;
  /** The account acted on, and for money the amount and balances; `answer` is null when the call failed. */
  subject?: (request: RequestOf<K>, answer: AnswerOf<K> | null) => Subject;
};

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** The balance after is the answer's; before is derived from it and the amount moved. */
const transfer =
  (sign: 1 | -1) =>
  (request: { user: string; amount: number }, answer: TransferResult | null): Subject => ({
    accountId: request.user,
    amount: request.amount,
    balanceAfter: answer?.balance ?? null,
    balanceBefore: answer ? cents(answer.balance - sign * request.amount) : null,
  });
const settled = (request: { bet: SportsBet }): Subject => ({ accountId: request.bet.userId, accountName: request.bet.username, amount: request.bet.amount });
const account = (request: { user: string }): Subject => ({ accountId: request.user });
const byId = (request: { id: string }): Subject => ({ accountId: request.id });
const named = (request: { username: string }): Subject => ({ accountName: request.username });

/**
 * Every call that changes something upstream, and nothing else (reads, sign-in's own calls, and
 * marketGreen, a POST that only reads). audit.server.test.ts fails when a POST is in neither list.
 */
export const AUDITED_CALLS: { [K in CallName]?: Rule<K> } = {
  userDeposit: { kind: "money", subject: transfer(1) },
  userWithdraw: { kind: "money", subject: transfer(-1) },
  updateDeposit: { kind: "decision", subject: (request) => ({ amount: request.inr ?? null }) },
  updateWithdraw: { kind: "decision" },
  settleBet: { kind: "settlement", subject: settled },
  resettleBet: { kind: "settlement", subject: settled },
  changePermissions: { kind: "permissions", subject: account },
  changeUserPassword: { kind: "password", subject: account },
  changePassword: { kind: "password" },
  addUser: { kind: "accounts", subject: named },
  makeDefaultAdmin: { kind: "accounts", subject: byId },
  updateBonusLimits: { kind: "settings" },
  updateBankDetails: { kind: "settings" },
  updateBankDetailsCorrected: { kind: "settings" },
  updateWhatsapp: { kind: "settings" },
  updateTelegram: { kind: "settings" },
  updateBonus: { kind: "settings" },
  updateMainBonus: { kind: "settings" },
  updateRefBonus: { kind: "settings" },
  addCoupon: { kind: "coupons" },
  addSlider: { kind: "slider" },
  removeSlider: { kind: "slider" },
  addAdmin: { kind: "staff", subject: named },
  removeAdmin: { kind: "staff", subject: byId },
};

/** POSTs that change nothing the trail must show: sign-in and sign-out are recorded as such. */
export const UNAUDITED_POSTS: readonly CallName[] = ["login", "logout", "marketGreen"];

/** Calls made of single calls' requests, recorded one entry per item as that single call (auditedItems). */
export const ITEMIZED_CALLS = { settleBets: "settleBet" } as const satisfies { [K in CallName]?: keyof typeof AUDITED_CALLS };

const SECRET_FIELD = /passw|secret|token|^otp$/i;
/** Longer strings (an uploaded image's data) are kept as their length. */
const LONGEST_KEPT = 200;

/**
 * The request as recorded: every password, secret and token field replaced, long strings cut. Copied only where
 * something changes: a JSON value with nothing to hide is answered as it is (a settlement job's thousand bets are
 * recorded as sent; issue 35). Anything but plain JSON (a date) is copied as its own fields, as always.
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((field, i) => {
      const kept = redact(field);
      if (kept !== field) (copy ??= [...value])[i] = kept;
    });
    return copy ?? value;
  }
  if (value && typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    let copy: Record<string, unknown> | undefined = prototype === Object.prototype || prototype === null ? undefined : { ...value };
    for (const [key, field] of Object.entries(value)) {
      const kept = SECRET_FIELD.test(key) ? "[redacted]" : redact(field);
      if (kept !== field) (copy ??= { ...value })[key] = kept;
    }
    return copy ?? value;
  }
  return typeof value === "string" && value.length > LONGEST_KEPT ? `[${value.length} characters]` : value;
}

/** The answer as recorded: its scalar fields (ids, balances, statuses), or a list's length. */
export function answerSummary(answer: unknown): unknown {
  if (Array.isArray(answer)) return { items: answer.length };
  if (answer && typeof answer === "object") {
    return Object.fromEntries(
      Object.entries(answer).filter(
        ([key, field]) =>
          !SECRET_FIELD.test(key) && (typeof field === "number" || typeof field === "boolean" || (typeof field === "string" && field.length <= LONGEST_KEPT)),
      ),
    );
  }
  return answer ?? null;
}

let failures = 0;
/** Entries this process could not record since it started (shown on /audit). */
export const auditFailures = (): number => failures;

function recordFailed(drafts: readonly AuditDraft[], error: unknown) {
  for (const draft of drafts) {
    failures++;
    currentLog().error({ err: error, entry: draft }, `audit: could not record ${draft.call} by ${draft.operator}`);
  }
}

/** Takes the entries of the batch this async context runs in (withAuditBatch), if any. */
const batched = new AsyncLocalStorage<(draft: AuditDraft) => void>();

/** The stored job whose item this async context performs (withAuditJob), if any. */
const performingJob = new AsyncLocalStorage<string>();

/** Runs `work` as the performing of the stored job's items: the entries it records name the job. */
export const withAuditJob = <T>(jobId: string, work: () => Promise<T>): Promise<T> => performingJob.run(jobId, work);

/** Appends the entry; a failure is logged with the entry itself, never thrown at the operator. */
export async function recordAudit(store: ConsoleStore | undefined, recorded: AuditDraft): Promise<void> {
  const jobId = performingJob.getStore();
  const traceId = requestContext()?.traceId;
  const draft = { ...recorded, ...(jobId && recorded.jobId === undefined && { jobId }), ...(traceId && { traceId }) };
  metrics.auditedActions.inc({ kind: draft.kind, outcome: draft.outcome });
  const batch = batched.getStore();
  if (batch) return batch(draft);
  try {
    if (!store) throw new Error("the console store is not open");
    await appendAudit(store, draft);
  } catch (error) {
    recordFailed([draft], error);
  }
}

/** Entries a batch appends together while its work goes on (withAuditBatch). */
export const AUDIT_BATCH_FLUSH = 50;

/**
 * Runs `work` keeping the entries it records, and appends them while the work goes on, one append
 * after another, then the rest; it returns once all are appended: a settlement chunk's calls go
 * upstream back to back instead of each waiting for its own append
 * (docs/decisions/0009-console-store-and-audit-trail.md, amendment on batches), and the appends
 * of the first answers are written while the chunk's other bets are still upstream. An append is
 * due once AUDIT_BATCH_FLUSH entries wait, and takes every entry waiting when it starts: answers
 * that came while the one before was written go in one statement, not one per AUDIT_BATCH_FLUSH
 * (a chunk's four `/settle-bets` calls answer together; issue 35). The entries are durable when
 * the chunk answers, as its job answers are.
 */
export async function withAuditBatch<T>(store: ConsoleStore | undefined, work: () => Promise<T>): Promise<T> {
  let drafts: AuditDraft[] = [];
  let appended = Promise.resolve();
  let due = false;
  const flush = () => {
    if (due) return;
    due = true;
    appended = appended.then(async () => {
      due = false;
      const batch = drafts;
      drafts = [];
      if (batch.length === 0) return;
      try {
        if (!store) throw new Error("the console store is not open");
        await appendAuditBatch(store, batch);
      } catch (error) {
        recordFailed(batch, error);
      }
    });
  };
  const take = (draft: AuditDraft) => {
    drafts.push(draft);
    if (drafts.length >= AUDIT_BATCH_FLUSH) flush();
  };
  try {
    return await batched.run(take, work);
  } finally {
    flush();
    await appended;
  }
}

export const NO_SUBJECT: Required<Subject> = { accountId: null, accountName: null, amount: null, balanceBefore: null, balanceAfter: null };

/** A four-eyes action's two operators: the entry's operator is the checker who performed it. */
export type FourEyes = { maker: string; checker: string };

/**
 * What the console knows of the account a call acts on that the call does not carry (issue 32):
 * its username, from the pick, the row or the job item, so the trail names it and `!` finds it.
 * Only a label: the browser sends it, so nothing is authorised by it.
 */
export type AuditLabel = { accountName?: string };

/** The entry's subject: the call's own, its account named by the label where the call names none. */
export const subjectOf = (subject: Subject, label: AuditLabel | undefined): Subject => ({
  ...subject,
  ...(!subject.accountName && label?.accountName && { accountName: label.accountName }),
});

/**
 * Performs `work` (the upstream exchange) and, for an audited call, records its outcome: `ok`,
 * `refused` (a 4xx: nothing was done) or `unknown` (no answer, a 5xx: it may have been done).
 * An approved four-eyes action's message names its maker and checker; `label` names its account.
 */
export async function auditedCall<K extends CallName>(
  store: ConsoleStore | undefined,
  actor: () => Promise<AuditActor>,
  name: K,
  request: RequestOf<K>,
  work: () => Promise<Answered<K>>,
  { fourEyes, label }: { fourEyes?: FourEyes; label?: AuditLabel } = {},
): Promise<AnswerOf<K>> {
  const rule = AUDITED_CALLS[name] as Rule<K> | undefined;
  if (!rule) return (await work()).data;
  const record = async (answer: AnswerOf<K> | null, outcome: Pick<AuditDraft, "outcome" | "status" | "message">) =>
    recordAudit(store, {
      ...(await actor()),
      call: name,
      kind: rule.kind,
      ...NO_SUBJECT,
      ...subjectOf(rule.subject?.(request, answer) ?? {}, label),
      ...outcome,
      message: fourEyes ? `${outcome.message} (four-eyes: made by ${fourEyes.maker}, approved by ${fourEyes.checker})` : outcome.message,
      request: redact(request),
      answer: answerSummary(answer),
    });
  let answered: Answered<K>;
  try {
    answered = await work();
  } catch (error) {
    if (error instanceof ApiError) {
      await record(null, { outcome: error.outcomeUnknown ? "unknown" : "refused", status: error.httpStatus, message: error.message });
    }
    throw error;
  }
  await record(answered.data, { outcome: "ok", status: answered.httpStatus, message: answered.message });
  return answered.data;
}

/** One item's outcome in a call made of many, as its own call would have had it. */
export type ItemOutcome = Pick<AuditDraft, "outcome" | "status" | "message">;

/**
 * Performs `work` (one exchange carrying `items`, each a `single` call's request, answered with
 * each item's outcome in order) and records one entry per item as that single call: the trail of
 * a `/settle-bets` call is a `settleBet` entry per bet. A failed exchange is every item's outcome,
 * except one after which the items go on their own calls (`resent`), recorded there.
 */
export async function auditedItems<I extends keyof typeof AUDITED_CALLS>(
  store: ConsoleStore | undefined,
  actor: () => Promise<AuditActor>,
  single: I,
  items: readonly RequestOf<I>[],
  work: () => Promise<ItemOutcome[]>,
  resent: (error: ApiError) => boolean,
): Promise<ItemOutcome[]> {
  const rule = AUDITED_CALLS[single] as Rule<I>;
  const record = async (outcomes: readonly ItemOutcome[]) => {
    const who = await actor();
    await Promise.all(
      items.map((item, i) =>
        recordAudit(store, { ...who, call: single, kind: rule.kind, ...NO_SUBJECT, ...rule.subject?.(item, null), ...outcomes[i]!, request: redact(item), answer: null }),
      ),
    );
  };
  let outcomes: ItemOutcome[];
  try {
    outcomes = await work();
  } catch (error) {
    if (error instanceof ApiError && !resent(error)) {
      await record(items.map(() => ({ outcome: error.outcomeUnknown ? "unknown" : "refused", status: error.httpStatus, message: error.message })));
    }
    throw error;
  }
  await record(outcomes);
  return outcomes;
}

/** A sign-in (`ok` with its factor, or refused with the reason), a sign-out, or a session ended otherwise (ADR 0010). */
export function recordSession(
  store: ConsoleStore | undefined,
  actor: AuditActor,
  call: "signIn" | "signOut" | "sessionEnded",
  outcome: Pick<AuditDraft, "outcome" | "status" | "message">,
): Promise<void> {
  return recordAudit(store, { ...actor, call, kind: "session", ...NO_SUBJECT, ...outcome, request: null, answer: null });
}
