/**
 * The palette's memory of the operator in the browser (issue 32): their frecency, read from the
 * console's store the first time the palette opens on a page, and counted at once when they
 * choose a command (the store is told in the background; a failure there costs only the memory).
 */
import { useEffect, useSyncExternalStore } from "react";
import { boostOf, decayedAt, usedOnceMore, type Frecency } from "./frecency";

export const PALETTE_MEMORY_ENDPOINT = "/resources/palette";

type Memory = { operator: string; uses: Record<string, Frecency>; version: number };
let memory: Memory | null = null;
let loading: string | null = null;
const listeners = new Set<() => void>();

function remember(next: Memory) {
  memory = next;
  for (const listener of listeners) listener();
}

/** Reads the operator's frecency once a page (again when another operator signs in). */
function load(operator: string) {
  if (memory?.operator === operator || loading === operator) return;
  loading = operator;
  void fetch(PALETTE_MEMORY_ENDPOINT, { headers: { Accept: "application/json" } })
    .then(async (response) => (response.ok ? ((await response.json()) as { uses?: Record<string, Frecency> }).uses : undefined))
    .catch(() => undefined)
    .then((uses) => {
      if (loading !== operator) return;
      loading = null;
      // Choices made while it loaded stay counted.
      remember({ operator, uses: { ...uses, ...(memory?.operator === operator ? memory.uses : {}) }, version: (memory?.version ?? 0) + 1 });
    });
}

/** Counts a command chosen by `operator`, here at once and in the store. */
export function noteChoice(operator: string, command: string): void {
  const uses = memory?.operator === operator ? memory.uses : {};
  remember({ operator, uses: { ...uses, [command]: usedOnceMore(uses[command], Date.now()) }, version: (memory?.version ?? 0) + 1 });
  void fetch(PALETTE_MEMORY_ENDPOINT, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ command }) }).catch(() => undefined);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * The operator's boost of each command id (0 to 1), and a version that changes with it: a
 * palette's ranking is rebuilt only then.
 */
export function usePaletteBoosts(operator: string): { boostOf: (command: string) => number; version: number } {
  useEffect(() => load(operator), [operator]);
  const version = useSyncExternalStore(subscribe, () => (memory?.operator === operator ? memory.version : 0), () => 0);
  const uses = memory?.operator === operator ? memory.uses : {};
  const now = Date.now();
  return { boostOf: (command) => (uses[command] ? boostOf(decayedAt(uses[command], now)) : 0), version };
}
