/**
 * The browser's end of the realtime relay (realtime.server.ts): connects to the console's own
 * socket with the session cookie once the page is up (the client library loads then, not with the
 * first page), and reports the connection state and each new request.
 */
import { useEffect, useRef, useState } from "react";
import { REALTIME_EVENTS, type MarketUpdateEvent, type NewRequestEvent } from "../../protocol/wire";
import { REALTIME_PATH, UPSTREAM_STATE_EVENT } from "./realtime";

export type RealtimeState = "connecting" | "live" | "offline";
export type NewRequest = { kind: "deposit" | "withdraw"; request: NewRequestEvent };

/** Screens that show an event's book, told by the shell's one connection when the book moved. */
const marketListeners = new Set<(event: MarketUpdateEvent) => void>();

/** Calls `onUpdate` on each relayed `market-update` while the calling screen shows. */
export function useMarketUpdates(onUpdate: (event: MarketUpdateEvent) => void): void {
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    const listener = (event: MarketUpdateEvent) => latest.current(event);
    marketListeners.add(listener);
    return () => void marketListeners.delete(listener);
  }, []);
}

export function useRealtime(onRequest: (event: NewRequest) => void): RealtimeState {
  const [state, setState] = useState<RealtimeState>("connecting");
  const latest = useRef(onRequest);
  latest.current = onRequest;
  useEffect(() => {
    let socket: { close: () => void } | null = null;
    let stopped = false;
    void import("socket.io-client").then(({ io }) => {
      if (stopped) return;
      const connection = io({ path: REALTIME_PATH, transports: ["websocket"] });
      socket = connection;
      connection.on("disconnect", () => setState("offline"));
      connection.on("connect_error", () => setState("offline"));
      connection.on(UPSTREAM_STATE_EVENT, (upstream: "live" | "offline") => setState(upstream));
      connection.on(REALTIME_EVENTS.newDeposit, (request: NewRequestEvent) => latest.current({ kind: "deposit", request }));
      connection.on(REALTIME_EVENTS.newWithdraw, (request: NewRequestEvent) => latest.current({ kind: "withdraw", request }));
      connection.on(REALTIME_EVENTS.marketUpdate, (event: MarketUpdateEvent) => marketListeners.forEach((listener) => listener(event)));
    });
    return () => {
      stopped = true;
      socket?.close();
    };
  }, []);
  return state;
}
