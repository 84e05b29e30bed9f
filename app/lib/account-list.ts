/** The users/panels list's URL query (docs/product.md §2.5: page and search), read the same way everywhere. */
import { z } from "zod";

/** The account kind, named everywhere as the desk's addresses name it: /users, /partners. */
export const ACCOUNT_MODES = ["users", "partners"] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];

/** The platform's `isPartner` form field for an account kind. */
export const isPartnerField = (mode: AccountMode): string => String(mode === "partners");

export const ACCOUNT_SORT_KEYS = ["_id", "username", "balance", "bonus", "createdAt"] as const;
export type AccountSortKey = (typeof ACCOUNT_SORT_KEYS)[number];
/** docs/product.md §9: the default sort. */
export const DEFAULT_ACCOUNT_SORT: AccountSortKey = "createdAt";

/** Never fails: every field falls back to its default. */
export const accountQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  search: z.string().trim().max(64).catch(""),
  orderBy: z.enum(ACCOUNT_SORT_KEYS).catch(DEFAULT_ACCOUNT_SORT),
  isAcc: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .catch(false),
});

export type AccountListParams = z.infer<typeof accountQuerySchema>;

/** Never fails: a hand-edited address falls back to the defaults rather than an error page. */
export function readAccountQuery(search: URLSearchParams): AccountListParams {
  return accountQuerySchema.parse({
    page: search.get("page") ?? undefined,
    search: search.get("search") ?? undefined,
    orderBy: search.get("orderBy") ?? undefined,
    isAcc: search.get("isAcc") ?? undefined,
  });
}

/** The list's query with some of it changed (the page resets unless given), defaults left out. */
export function accountQueryParams(current: AccountListParams, change: Partial<AccountListParams>): URLSearchParams {
  const next = { ...current, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.page > 1) params.set("page", String(next.page));
  if (next.search) params.set("search", next.search);
  if (next.orderBy !== DEFAULT_ACCOUNT_SORT) params.set("orderBy", next.orderBy);
  if (next.isAcc) params.set("isAcc", "true");
  return params;
}

/** The same, as the `?…` of an address ("" when it is all defaults). */
export function accountQueryString(current: AccountListParams, change: Partial<AccountListParams>): string {
  const text = accountQueryParams(current, change).toString();
  return text ? `?${text}` : "";
}

const USERS_DOWNLOAD_PATH = "/resources/accounts/users/download";

/**
 * Download Users' address: on a users list (`/users`, `/users/{panel}`) it keeps that list's
 * search and sort (and panel); elsewhere it is every user.
 */
export function usersDownloadHref(location: { pathname: string; search: string }): string {
  const onUsers = /^\/users(?:\/([^/]+))?$/.exec(location.pathname);
  if (!onUsers) return USERS_DOWNLOAD_PATH;
  const params = accountQueryParams(readAccountQuery(new URLSearchParams(location.search)), {});
  if (onUsers[1]) params.set("partner", decodeURIComponent(onUsers[1]));
  const query = params.toString();
  return query ? `${USERS_DOWNLOAD_PATH}?${query}` : USERS_DOWNLOAD_PATH;
}
