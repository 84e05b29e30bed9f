/** The approval desk on the server: the request lists, decisions, and receipt images. */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { REQUEST_STATUS, type RequestKind } from "../../protocol/wire";
import { ApiError, moneyCall } from "./api.server";
import { MESSAGES, type PendingCounts } from "./constants";
import { decisionSchema } from "./forms/decision";
import { readForm, runForm } from "./forms/run-form.server";
import { loadListPage } from "./list.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import { callAsOperator, imageAsOperator } from "./session.server";

const querySchema = z.object({
  status: z.coerce.number().int().min(REQUEST_STATUS.pending).max(REQUEST_STATUS.fail).catch(REQUEST_STATUS.pending),
  page: z.coerce.number().int().min(1).catch(1),
});

export async function loadRequests(request: Request, context: AppLoadContext, kind: RequestKind) {
  if (kind === "deposit") {
    const [page, bonusLimits, coupons] = await Promise.all([
      loadListPage(request, querySchema, (query) => callAsOperator(request, context, "deposits", query)),
      // An extension: an API without it still lists and decides, the dialog showing no limits (after
      // the first 404 it is not asked again, callAsOperator).
      callAsOperator(request, context, "bonusLimits", undefined).catch(() => null),
      // The coupons' percentages, for what a success credits; null for staff without `settings`.
      callAsOperator(request, context, "coupons", undefined).catch(() => null),
    ]);
    return { kind, ...page, bonusLimits, coupons } as const;
  }
  const page = await loadListPage(request, querySchema, (query) => callAsOperator(request, context, "withdraws", query));
  return { kind, ...page, bonusLimits: null, coupons: null } as const;
}

export type RequestsData = Awaited<ReturnType<typeof loadRequests>>;

/** docs/product.md §2.11: success or fail a pending request; the list reloads after. */
export async function decideRequest(request: Request, context: AppLoadContext, kind: RequestKind) {
  return runForm(Object.fromEntries(await readForm(request)), decisionSchema, async (form) => {
    const { id: _id, username, decision: status, remark, inr, mainInrBonus, mainPrnBonus, inrBonus, prnBonus } = form;
    const label = { accountName: username };
    if (kind === "deposit") {
      await moneyCall(callAsOperator(request, context, "updateDeposit", { _id, status, inr, mainInrBonus, mainPrnBonus, inrBonus, prnBonus }, label));
      return MESSAGES.depositsUpdated;
    }
    await moneyCall(callAsOperator(request, context, "updateWithdraw", { _id, status, remark: remark || undefined }, label));
    return MESSAGES.withdrawsUpdated;
  });
}

/** A deposit's receipt image, streamed from the platform (the browser never holds the token). */
export const receiptImage = (request: Request, context: AppLoadContext, name: string) => imageAsOperator(request, context, "upload", name);

const historySchema = z.object({
  user: z.string().min(1).max(32),
  role: z.enum(["user", "partner"]).catch("user"),
  username: z.string().max(64).optional(),
  type: z.enum(["deposits", "withdraws"]).catch("deposits"),
  page: z.coerce.number().int().min(1).catch(1),
});

/** docs/product.md §2.8: one account's deposit or withdrawal history. */
export function loadHistory(request: Request, context: AppLoadContext) {
  return loadListPage(request, historySchema, (query) => callAsOperator(request, context, "transactions", query));
}

/**
 * Pending deposits and withdrawals for the status line; null where the operator may not see them
 * (or the API does not answer): the counts never stop the console from loading.
 */
export async function pendingCounts(request: Request, context: AppLoadContext): Promise<Pick<PendingCounts, "deposits" | "withdraws">> {
  const count = async (name: "deposits" | "withdraws") => {
    try {
      return (await callAsOperator(request, context, name, { status: REQUEST_STATUS.pending, page: 1, pageSize: 1 })).total;
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
  };
  const [deposits, withdraws] = await Promise.all([count("deposits"), count("withdraws")]);
  return { deposits, withdraws };
}

/** What `#` in the palette finds: pending requests whose username or UTR matches. */
export type RequestHit = { id: string; kind: RequestKind; username: string; amount: number; utr: string | null };

export function searchRequests(request: Request, context: AppLoadContext, term: string) {
  const query = { status: REQUEST_STATUS.pending, page: 1, pageSize: SEARCH_LIMIT, search: term };
  return searchSources<RequestHit>([
    async () =>
      (await callAsOperator(request, context, "deposits", query)).items.map((row) => ({
        id: row._id,
        kind: "deposit" as const,
        username: row.username,
        amount: row.amount,
        utr: row.utr,
      })),
    async () =>
      (await callAsOperator(request, context, "withdraws", query)).items.map((row) => ({
        id: row._id,
        kind: "withdraw" as const,
        username: row.username,
        amount: row.amount,
        utr: null,
      })),
  ]);
}
