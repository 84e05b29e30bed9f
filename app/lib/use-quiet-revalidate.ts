/**
 * Reloads the page's data, but never over a load already under way: a second load started over
 * one in flight aborts it mid-read, which Remix reports as an error. Asked while busy, the reload
 * waits until every load is done (the one in flight may have started before the news arrived).
 */
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

export function useQuietRevalidate(): () => void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || revalidator.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const latest = useRef({ revalidate: revalidator.revalidate, busy });
  latest.current = { revalidate: revalidator.revalidate, busy };
  const waiting = useRef(false);

  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    revalidator.revalidate();
  }, [busy, revalidator]);

  return useCallback(() => {
    if (latest.current.busy) waiting.current = true;
    else latest.current.revalidate();
  }, []);
}
