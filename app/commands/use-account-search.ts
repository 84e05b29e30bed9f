/**
 * Server search of users and panels as the operator types: debounced, capped by the server, and
 * the latest answer wins (a fetcher cancels its earlier load when it loads again).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { AccountHit } from "../lib/accounts.server";
import { rememberAccounts } from "./account-cache";

export const SEARCH_DEBOUNCE_MS = 150;

export function useAccountSearch(term: string): { hits: AccountHit[]; message: string | null; busy: boolean } {
  const fetcher = useFetcher<{ hits: AccountHit[]; message: string | null }>();
  const { load } = fetcher;
  const trimmed = term.trim();
  useEffect(() => {
    if (!trimmed) return;
    const timer = setTimeout(() => load(`/resources/accounts/search?${new URLSearchParams({ q: trimmed })}`), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [trimmed, load]);
  useEffect(() => rememberAccounts(fetcher.data?.hits ?? []), [fetcher.data]);
  return {
    hits: trimmed ? (fetcher.data?.hits ?? []) : [],
    message: trimmed ? (fetcher.data?.message ?? null) : null,
    busy: fetcher.state !== "idle",
  };
}
