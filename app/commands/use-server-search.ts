/**
 * Server search as the operator types: debounced, capped by the server, and the latest answer
 * wins: each new term aborts the request before it, and an aborted request is simply dropped.
 * (A plain fetch, not a fetcher: the router can report a superseded fetcher load as an error.)
 */
import { useEffect, useState } from "react";
import { MESSAGES } from "../lib/constants";
import type { Found } from "./types";

export const SEARCH_DEBOUNCE_MS = 150;

type SearchAnswer<Hit> = { hits: Hit[]; message: string | null };

export function useServerSearch<Hit>(endpoint: string, term: string): Found<Hit> {
  const [answer, setAnswer] = useState<SearchAnswer<Hit> & { term: string }>({ hits: [], message: null, term: "" });
  const [busy, setBusy] = useState(false);
  const trimmed = term.trim();
  useEffect(() => {
    if (!trimmed) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setBusy(true);
      try {
        const response = await fetch(`${endpoint}?${new URLSearchParams({ q: trimmed })}`, {
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        const found = (await response.json()) as SearchAnswer<Hit>;
        setAnswer({ ...found, term: trimmed });
      } catch (error) {
        if (controller.signal.aborted) return;
        setAnswer({ hits: [], message: MESSAGES.fallback, term: trimmed });
      }
      setBusy(false);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [endpoint, trimmed]);
  // An answer for an older term is not shown for the new one.
  const current = trimmed !== "" && answer.term === trimmed;
  return { hits: current ? answer.hits : [], message: current ? answer.message : null, busy: busy || (trimmed !== "" && !current) };
}

/** A search narrowed to the hits `keep` accepts (a panel among accounts, a deposit among requests). */
export const keepHits = <Hit>(found: Found<Hit>, keep: (hit: Hit) => boolean): Found<Hit> => ({ ...found, hits: found.hits.filter(keep) });
