/** Where the console's own socket lives, shared by the relay (server) and the browser. */
export const REALTIME_PATH = "/realtime";
/** Sent to the browser whenever the relay's upstream connection comes or goes: "live" | "offline". */
export const UPSTREAM_STATE_EVENT = "upstream";
/** Sent to every signed-in browser when the count of open four-eyes approvals changes (the count). */
export const APPROVALS_EVENT = "approvals";

/**
 * Which events the relay has delivered since its upstream connection last came up. `market-update`
 * and `bet-settled` are extensions (the spec has only `new-deposit` and `new-withdraw`): a screen
 * that repaints on one keeps the spec's 10 s poll until one arrives, and again after the upstream
 * connection dropped (events sent meanwhile are lost).
 */
export function createDeliveries<Event extends string>() {
  const delivered = new Set<Event>();
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((watcher) => watcher());
  return {
    has: (event: Event): boolean => delivered.has(event),
    seen(event: Event) {
      if (delivered.has(event)) return;
      delivered.add(event);
      changed();
    },
    /** The upstream connection is down: nothing is known delivered any more. */
    lost() {
      if (delivered.size === 0) return;
      delivered.clear();
      changed();
    },
    subscribe(watcher: () => void): () => void {
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
  };
}
