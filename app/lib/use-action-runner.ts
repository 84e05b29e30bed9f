/**
 * Lets code outside a form (palette commands) post to a route action and await its Outcome.
 * A fetcher's submit returns nothing, so the promise settles when the fetcher is idle again. An
 * answer asking for the second factor (re-authentication) opens the prompt where the operator is,
 * and once it is given the same action is sent again.
 */
import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { MESSAGES } from "./constants";
import type { Outcome } from "./feedback";
import { askForFactor, asksForFactor } from "./second-factor-client";

const NOT_CONFIRMED: Outcome = { ok: false, message: "Not confirmed: nothing was changed" };

/** `key` names the fetcher: one per caller, so two callers never wait on each other's answer. */
export function useActionRunner(key = "command-runner"): (action: string, values: Record<string, string>) => Promise<Outcome> {
  const fetcher = useFetcher<Outcome>({ key });
  const waiting = useRef<{ resolve: (outcome: Outcome) => void; started: boolean } | null>(null);

  useEffect(() => {
    const current = waiting.current;
    if (!current) return;
    if (fetcher.state !== "idle") {
      current.started = true;
    } else if (current.started) {
      waiting.current = null;
      current.resolve(fetcher.data ?? { ok: false, message: MESSAGES.fallback });
    }
  }, [fetcher.state, fetcher.data]);

  const { submit } = fetcher;
  const send = useCallback(
    (action: string, values: Record<string, string>) =>
      new Promise<Outcome>((resolve) => {
        waiting.current = { resolve, started: false };
        submit(values, { method: "post", action });
      }),
    [submit],
  );
  return useCallback(
    async (action, values) => {
      const outcome = await send(action, values);
      if (!asksForFactor(outcome)) return outcome;
      return (await askForFactor()) ? send(action, values) : NOT_CONFIRMED;
    },
    [send],
  );
}
