/** Shows a form's Outcome as the spec's toast, once per answer, and runs `onSuccess` after a good one. */
import { useEffect, useRef } from "react";
import { announce, type Outcome } from "./feedback";

export function useAnnouncedOutcome(outcome: Outcome | undefined, onSuccess?: () => void): void {
  const shown = useRef<Outcome>();
  const latest = useRef(onSuccess);
  latest.current = onSuccess;
  useEffect(() => {
    if (!outcome || shown.current === outcome) return;
    shown.current = outcome;
    announce(outcome);
    if (outcome.ok) latest.current?.();
  }, [outcome]);
}
