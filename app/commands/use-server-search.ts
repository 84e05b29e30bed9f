/**
 * Server search as the operator types: debounced, capped by the server, and the latest answer
 * wins (a fetcher cancels its earlier load when it loads again).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";

export const SEARCH_DEBOUNCE_MS = 150;

export type SearchAnswer<Hit> = { hits: Hit[]; message: string | null };

export function useServerSearch<Hit>(endpoint: string, term: string): SearchAnswer<Hit> & { busy: boolean } {
  const fetcher = useFetcher<SearchAnswer<Hit>>();
  const { load } = fetcher;
  const trimmed = term.trim();
  useEffect(() => {
    if (!trimmed) return;
    const timer = setTimeout(() => load(`${endpoint}?${new URLSearchParams({ q: trimmed })}`), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [endpoint, trimmed, load]);
  return {
    hits: trimmed ? (fetcher.data?.hits ?? []) : [],
    message: trimmed ? (fetcher.data?.message ?? null) : null,
    busy: fetcher.state !== "idle",
  };
}
