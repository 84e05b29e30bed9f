/**
 * A pick step's choices from one server list rather than a search (Settle market…'s events with
 * pending bets, an event's markets): read once per address, then narrowed and ranked by the
 * palette's own ranking as the operator types, so a keystroke costs no request.
 */
import { useEffect, useMemo, useState } from "react";
import { MESSAGES } from "../lib/constants";
import { narrowChoices } from "./rank";
import type { Found } from "./types";

type Loaded<Choice> = { address: string; choices: Choice[]; message: string | null };

export function useChoiceList<Choice>(
  address: string,
  term: string,
  titleOf: (choice: Choice) => string,
): Found<Choice> {
  const [loaded, setLoaded] = useState<Loaded<Choice> | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      try {
        const response = await fetch(address, { headers: { Accept: "application/json" }, signal: controller.signal });
        if (!response.ok) {
          setLoaded({ address, choices: [], message: (await response.text()) || MESSAGES.fallback });
          return;
        }
        const answer = (await response.json()) as { choices?: Choice[] };
        setLoaded({ address, choices: answer.choices ?? [], message: null });
      } catch {
        if (!controller.signal.aborted) setLoaded({ address, choices: [], message: MESSAGES.fallback });
      }
    })();
    return () => controller.abort();
  }, [address]);
  const current = loaded?.address === address ? loaded : null;
  // `titleOf` is a module-level function of the caller: the choices alone say when to rank anew.
  const narrow = useMemo(() => narrowChoices(current?.choices ?? [], titleOf), [current]);
  return { hits: narrow(term), message: current?.message ?? null, busy: current === null };
}
