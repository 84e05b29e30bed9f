/** The users and panels desk on the server: its list, its row actions, a row's details. */
import type { AppLoadContext } from "@remix-run/node";
import Bowser from "bowser";
import { z } from "zod";
import { GAME_FLAGS, ROLE, type PartnerRow } from "../../protocol/wire";
import { accountQuerySchema, readAccountQuery, type AccountMode } from "./account-list";
import { ApiError, moneyCall } from "./api.server";
import { lackSentence } from "./capabilities";
import { capabilities } from "./capabilities.server";
import { ACCOUNT_JOB_CHUNK_IN_FLIGHT, MESSAGES } from "./constants";
import { accountActionInput, accountActionSchema, type AccountAction } from "./forms/account-actions";
import { addAccountInput, addAccountSchema, addUserRequest } from "./forms/add-account";
import { readForm, runForm } from "./forms/run-form.server";
import { HeldForApproval } from "./four-eyes.server";
import { inBatches } from "../machines/in-batches";
import type { ChunkResult } from "./bets.server";
import { runJobChunk, type Claimed } from "./jobs.server";
import { loadListPage } from "./list.server";
import { orRouteError } from "./route-errors.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import { callAsOperator, downloadAsOperator, performApproved } from "./session.server";
import type { CallName, RequestOf } from "./api-routes.server";
import type { FourEyes } from "./audit.server";
import { ACCOUNT_JOB_CHUNK_MAX, accountItemAction, isAccountJobKind, type AccountJobKind } from "./account-jobs";

export async function loadAccountList(
  request: Request,
  context: AppLoadContext,
  mode: AccountMode,
  panel: string | undefined,
) {
  const [admin, { query, list }] = await Promise.all([
    orRouteError(callAsOperator(request, context, "currentAdmin", undefined)),
    loadListPage(request, accountQuerySchema, (query) => {
      const listQuery = { username: query.search || undefined, page: query.page, orderBy: query.orderBy, isAcc: query.isAcc, partner: panel };
      return mode === "users" ? callAsOperator(request, context, "users", listQuery) : callAsOperator(request, context, "partners", listQuery);
    }),
  ]);
  // docs/product.md §2.5: in partner mode, role 1 sees the current default admin.
  const defaultAdmin: PartnerRow | null =
    mode === "partners" && admin.role === ROLE.superAdmin
      ? ((await orRouteError(callAsOperator(request, context, "defaultAdmin", undefined)))[0] ?? null)
      : null;
  return { mode, panel: panel ?? null, query, list, defaultAdmin, superAdmin: admin.role === ROLE.superAdmin };
}

export type AccountListData = Awaited<ReturnType<typeof loadAccountList>>;

/** Runs one form of the desk (the add dialog, a row-panel form; docs/product.md §2.6) and answers the toast. */
export async function accountAction(request: Request, context: AppLoadContext) {
  const submitted = await readForm(request);
  if (submitted.get("intent") === "addAccount") {
    return runForm(addAccountInput(submitted), addAccountSchema, async (form) => {
      await callAsOperator(request, context, "addUser", addUserRequest(form));
      return MESSAGES.userAdded;
    });
  }
  const jobId = jobIdSchema.safeParse(submitted.get("jobId"));
  return runForm(accountActionInput(submitted), accountActionSchema, (form) =>
    jobId.success ? performInJob(request, context, jobId.data, form) : perform(request, context, form),
  );
}

const jobIdSchema = z.string().uuid();

/**
 * One item of a stored bulk job (issue 19): performed only if this request claims it (never a
 * second time), its answer recorded in the store; an item answered before is answered as stored.
 * Only the item as confirmed (and counted by the job thresholds) is performed: a post that differs
 * from the stored item is refused. An approved job's items go as its checker's, never held again.
 */
async function performInJob(request: Request, context: AppLoadContext, jobId: string, action: AccountAction, fourEyes?: FourEyes): Promise<string> {
  let message: string = MESSAGES.answeredBefore;
  const [result] = await runJobChunk(request, context, jobId, [action.user], async (claimed) => {
    if (!claimed.has(action.user)) return [];
    const stored = claimed.get(action.user);
    if (stored && !isStoredAction(stored, action)) return [{ key: action.user, error: MESSAGES.jobItemChanged }];
    return [await itemResult(action.user, async () => void (message = await perform(request, context, action, fourEyes)))];
  });
  if (result?.error !== undefined) throw new ApiError(result.error, result.unknown ? null : 409);
  return message;
}

/** An item's answer once performed: done; refused, or held for a second operator (answered: the job never sends it again); unknown. */
async function itemResult(key: string, performing: () => Promise<void>): Promise<ChunkResult> {
  try {
    await performing();
    return { key };
  } catch (error) {
    if (error instanceof HeldForApproval) return { key, error: error.message };
    if (error instanceof ApiError) return { key, error: error.message, ...(error.outcomeUnknown && { unknown: true }) };
    throw error;
  }
}

const jobChunkSchema = z.object({
  jobId: z.string().uuid(),
  keys: z.array(z.string().regex(/^\d{1,19}$/, "An item is an account id")).min(1).max(ACCOUNT_JOB_CHUNK_MAX),
});

/**
 * POST /resources/accounts/job-items (issue 34): a chunk of the operator's own stored bulk job,
 * named by its items' keys. The chunk is claimed in one store round; each claimed item performs the
 * action stored with it, never anything the browser sends, a few at a time; every key's answer
 * comes back as JSON, and no screen is read again until the job ends.
 */
export async function runAccountJobChunk(request: Request, context: AppLoadContext): Promise<Response> {
  const parsed = jobChunkSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ message: parsed.error.issues[0]!.message }, { status: 400 });
  const { jobId, keys } = parsed.data;
  const results = await runJobChunk(request, context, jobId, [...new Set(keys)], (claimed) =>
    inBatches([...claimed], ACCOUNT_JOB_CHUNK_IN_FLIGHT, async ([key, stored]) => {
      const action = stored && isAccountJobKind(stored.kind) ? accountItemAction(stored.kind, stored.item) : null;
      if (!action || action.user !== key) return { key, error: MESSAGES.jobItemChanged };
      return itemResult(key, async () => void (await perform(request, context, action)));
    }),
  );
  return Response.json({ results });
}

const isStoredAction = ({ kind, item }: NonNullable<Claimed>, action: AccountAction): boolean =>
  isAccountJobKind(kind) && JSON.stringify(accountItemAction(kind, item)) === JSON.stringify(action);

/** Items of an approved bulk job in flight at once: each is another account's, claimed on its own. */
const APPROVED_JOB_CONCURRENCY = 8;

/**
 * An approved bulk job (four-eyes, issue 19), stored as the checker's: each item's confirmed action
 * performed once, as the checker, a few at a time. Answers how many were done and how many failed.
 */
export async function runApprovedAccountJob(
  request: Request,
  context: AppLoadContext,
  jobId: string,
  job: { kind: AccountJobKind; items: ReadonlyArray<{ key: string; requestId: string; payload: unknown }> },
  fourEyes: FourEyes,
): Promise<{ done: number; failed: number }> {
  const failures = await inBatches(job.items, APPROVED_JOB_CONCURRENCY, async (item) => {
    const action = accountItemAction(job.kind, item);
    try {
      if (!action) throw new ApiError(MESSAGES.jobItemChanged, 409);
      await performInJob(request, context, jobId, action, fourEyes);
      return 0;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return 1;
    }
  });
  const failed = failures.reduce<number>((sum, one) => sum + one, 0);
  return { done: job.items.length - failed, failed };
}

/** What the add dialog starts from: the operator's own game flags and the partner roles. */
export async function loadNewAccountForm(request: Request, context: AppLoadContext) {
  const [permissions, roles] = await Promise.all([
    orRouteError(callAsOperator(request, context, "permissions", undefined)),
    orRouteError(callAsOperator(request, context, "partnerRoles", undefined)),
  ]);
  return { permissions, roles };
}
export type NewAccountForm = Awaited<ReturnType<typeof loadNewAccountForm>>;

async function perform(request: Request, context: AppLoadContext, action: AccountAction, fourEyes?: FourEyes): Promise<string> {
  const { user, isPartner } = action;
  // The trail names the account by the username the form carried (a label only, issue 32).
  const label = { accountName: action.username };
  // An approved action goes as its checker's, with the approval named in the trail (never held again).
  const send = <K extends CallName>(name: K, body: RequestOf<K>) =>
    fourEyes ? performApproved(request, context, name, body, fourEyes, label) : callAsOperator(request, context, name, body, label);
  switch (action.intent) {
    case "deposit":
    case "withdraw": {
      const { amount, remark, requestId } = action;
      const call = action.intent === "deposit" ? "userDeposit" : "userWithdraw";
      await moneyCall(send(call, { user, isPartner, amount, remark, requestId }));
      return action.intent === "deposit" ? MESSAGES.depositAdded : MESSAGES.withdrawn;
    }
    case "password":
      await send("changeUserPassword", { user, isPartner, password: action.password });
      return MESSAGES.passwordChanged;
    case "permissions": {
      const permissions = Object.fromEntries(GAME_FLAGS.map((flag) => [flag, action.flags.includes(flag)]));
      await send("changePermissions", {
        user,
        isPartner,
        permissions,
        bet: action.bet,
        login: action.login,
      });
      return MESSAGES.permissionsSaved;
    }
    case "makeDefault":
      await send("makeDefaultAdmin", { id: user });
      return MESSAGES.defaultAdminChanged;
    case "switch": {
      const current = await callAsOperator(request, context, isPartner ? "partnerPermissions" : "userPermissions", { id: user });
      const on = action.on === "toggle" ? !current[action.switch] : action.on === "true";
      await send("changePermissions", { user, isPartner, ...current, [action.switch]: on });
      return MESSAGES.permissionsSaved;
    }
  }
}

/** A row's permission settings, or its login logs with device and browser read from the user-agent. */
export async function loadAccountDetails(
  request: Request,
  context: AppLoadContext,
  mode: AccountMode,
  id: string,
  view: "permissions" | "logs",
) {
  if (view === "permissions") {
    const settings = await orRouteError(
      callAsOperator(request, context, mode === "users" ? "userPermissions" : "partnerPermissions", { id }),
    );
    return { view, settings } as const;
  }
  const logs = await orRouteError(
    callAsOperator(request, context, "loginLogs", { userId: id, isPartner: mode === "partners" || undefined }),
  );
  return {
    view,
    logs: logs.map((log) => {
      const agent = Bowser.parse(log.userAgent || "");
      const device = [agent.platform.type, agent.os.name, agent.os.versionName ?? agent.os.version].filter(Boolean);
      return {
        ip: log.ip,
        device: device.join(" ") || "unknown",
        browser: [agent.browser.name, agent.browser.version].filter(Boolean).join(" ") || "unknown",
        createdAt: log.createdAt,
      };
    }),
  } as const;
}

export type AccountDetails = Awaited<ReturnType<typeof loadAccountDetails>>;

/** What `@` in the palette finds: users and panels whose username matches, best few of each. */
export type AccountHit = { id: string; username: string; mode: AccountMode; balance: number };

export function searchAccounts(request: Request, context: AppLoadContext, term: string) {
  const query = { username: term, pageSize: SEARCH_LIMIT, orderBy: "username" as const, isAcc: true };
  const hitsOf = (mode: AccountMode, rows: Array<{ _id: string; username: string; balance: number }>): AccountHit[] =>
    rows.map((row) => ({ id: row._id, username: row.username, mode, balance: row.balance }));
  return searchSources<AccountHit>([
    async () => hitsOf("users", (await callAsOperator(request, context, "users", query)).items),
    async () => hitsOf("partners", (await callAsOperator(request, context, "partners", query)).items),
  ]);
}

/**
 * The partners' CSV asks `/download-users` for `type=partners`, an extension (the spec's download is
 * of users): its header ends with the Role column (docs/protocol.md "Accounts desk"). An API that
 * ignored `type` answers the users' CSV, which must never pass for the partners'; the header shows it.
 */
const PARTNERS_CSV_LAST_COLUMN = "Role";

/** `body` as it came, once its first line shows the partners' columns; else the lack, learnt and refused. */
export async function partnersCsv(body: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    text += new TextDecoder().decode(value, { stream: true });
  }
  const header = text.split(/\r?\n/)[0]!.split(",");
  if (header.at(-1)?.replaceAll('"', "") !== PARTNERS_CSV_LAST_COLUMN) {
    await reader.cancel();
    capabilities.learnIgnored("downloadUsers", "type", "GET /download-users answered the users' columns when asked for partners");
    throw new ApiError(lackSentence(capabilities.lack("downloadUsers", "downloadUsers?type")!), 404);
  }
  return new ReadableStream({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Download Users (docs/product.md §2.5): the platform's CSV for the list's filters, streamed through; partners' too where the API has them. */
export async function downloadAccounts(request: Request, context: AppLoadContext, mode: AccountMode) {
  const url = new URL(request.url);
  const query = readAccountQuery(url.searchParams);
  const download = async () => {
    const lacked = mode === "partners" && capabilities.lack("downloadUsers", "downloadUsers?type");
    if (lacked) throw new ApiError(lackSentence(lacked), 404);
    const upstream = await downloadAsOperator(request, context, "downloadUsers", {
      type: mode,
      username: query.search || undefined,
      orderBy: query.orderBy,
      isAcc: query.isAcc,
      partner: url.searchParams.get("partner") ?? undefined,
    });
    return { upstream, body: mode === "partners" && upstream.body ? await partnersCsv(upstream.body) : upstream.body };
  };
  const { upstream, body } = await orRouteError(download());
  const headers = new Headers({ "Content-Type": upstream.headers.get("Content-Type") ?? "text/csv; charset=utf-8" });
  const disposition = upstream.headers.get("Content-Disposition");
  if (disposition) headers.set("Content-Disposition", disposition);
  return new Response(body, { headers });
}
