/**
 * The browser's end of the realtime relay (realtime.server.ts): connects to the console's own
 * socket with the session cookie once the page is up (the client library loads then, not with the
 * first page), and reports the connection state and each new request. Screens that repaint on an
 * extension event (`market-update`, `bet-settled`) subscribe here and learn whether it is being
 * delivered, so they can keep the spec's 10 s poll while it is not.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { REALTIME_EVENTS, type BetSettledEvent, type MarketUpdateEvent, type NewRequestEvent } from "../../protocol/wire";
import { APPROVALS_EVENT, createDeliveries, REALTIME_PATH, UPSTREAM_STATE_EVENT } from "./realtime";
import { useQuietRevalidate } from "./use-quiet-revalidate";

export type RealtimeState = "connecting" | "live" | "offline";
export type NewRequest = { kind: "deposit" | "withdraw"; request: NewRequestEvent };

type ScreenEvents = { [REALTIME_EVENTS.marketUpdate]: MarketUpdateEvent; [REALTIME_EVENTS.betSettled]: BetSettledEvent };
type ScreenEvent = keyof ScreenEvents;
const SCREEN_EVENTS = [REALTIME_EVENTS.marketUpdate, REALTIME_EVENTS.betSettled] as const satisfies readonly ScreenEvent[];

/** Screens listening to an event while they show, told by the shell's one connection. */
const listeners = new Map<ScreenEvent, Set<(payload: unknown) => void>>(SCREEN_EVENTS.map((event) => [event, new Set()]));
const deliveries = createDeliveries<ScreenEvent>();

/** Calls `onEvent` on each relayed `event` while the calling screen shows. */
export function useRealtimeEvent<Event extends ScreenEvent>(event: Event, onEvent: (payload: ScreenEvents[Event]) => void): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    // The platform sends each event with its wire type (protocol/wire.ts).
    const listener = (payload: unknown) => latest.current(payload as ScreenEvents[Event]);
    const set = listeners.get(event)!;
    set.add(listener);
    return () => void set.delete(listener);
  }, [event]);
}

/** Whether `event` arrived since the upstream connection came up: until it has, poll. */
export const useDelivered = (event: ScreenEvent): boolean =>
  useSyncExternalStore(deliveries.subscribe, () => deliveries.has(event), () => false);

export const useMarketUpdates = (onUpdate: (event: MarketUpdateEvent) => void) => useRealtimeEvent(REALTIME_EVENTS.marketUpdate, onUpdate);

export function useRealtime(onRequest: (event: NewRequest) => void): RealtimeState {
  const [state, setState] = useState<RealtimeState>("connecting");
  const latest = useRef(onRequest);
  latest.current = onRequest;
  // The status line's count of four-eyes approvals is the layout's: reload it when it changes
  // (a stable callback, so the connection's handler keeps the first one).
  const revalidate = useQuietRevalidate();
  useEffect(() => {
    let socket: { close: () => void } | null = null;
    let stopped = false;
    const offline = () => {
      deliveries.lost();
      setState("offline");
    };
    void import("socket.io-client").then(({ io }) => {
      if (stopped) return;
      const connection = io({ path: REALTIME_PATH, transports: ["websocket"] });
      socket = connection;
      connection.on("disconnect", offline);
      connection.on("connect_error", offline);
      connection.on(UPSTREAM_STATE_EVENT, (upstream: "live" | "offline") => (upstream === "live" ? setState("live") : offline()));
      connection.on(REALTIME_EVENTS.newDeposit, (request: NewRequestEvent) => latest.current({ kind: "deposit", request }));
      connection.on(REALTIME_EVENTS.newWithdraw, (request: NewRequestEvent) => latest.current({ kind: "withdraw", request }));
      connection.on(APPROVALS_EVENT, () => revalidate());
      for (const event of SCREEN_EVENTS) {
        connection.on(event, (payload: unknown) => {
          deliveries.seen(event);
          listeners.get(event)!.forEach((listener) => listener(payload));
        });
      }
    });
    return () => {
      stopped = true;
      socket?.close();
      deliveries.lost();
    };
  }, []);
  return state;
}
