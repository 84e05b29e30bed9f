/**
 * The liability board's figures in the browser: the list paints at once from its loader, then
 * asks `/resources/markets/board` for its events a batch at a time, one request in flight, and
 * fills each row as its batch answers. Every reload of the list (the 10 s poll) asks again for all
 * of them; a relayed `market-update` asks for its event first, past the server's brief cache.
 * Rows keep their figures while newer ones are on the way.
 */
import { useEffect, useRef, useState } from "react";
import { useMarketUpdates } from "../../lib/use-realtime";
import { nextBatch, type BoardCell, type BoardEvent } from "./board";

/** Events per request: small, so the first rows fill soon after the first paint. */
const BATCH = 8;

type Row = { eventId: string } & BoardCell;

async function askFor(events: readonly BoardEvent[], fresh: boolean, signal: AbortSignal): Promise<Row[]> {
  const params = new URLSearchParams(events.map((event) => ["event", `${event.sportName}:${event.eventId}`]));
  if (fresh) params.set("fresh", "1");
  const failed = (error: string) => events.map((event) => ({ eventId: event.eventId, error }));
  try {
    const response = await fetch(`/resources/markets/board?${params}`, { signal, headers: { Accept: "application/json" } });
    if (!response.ok) return failed((await response.text()) || `The console answered ${response.status}`);
    return ((await response.json()) as { rows: Row[] }).rows;
  } catch {
    // Left the screen (aborted), or no answer, or not JSON (signed out: the session check follows).
    return signal.aborted ? [] : failed("No answer from the console");
  }
}

export function useBoardFigures(events: readonly BoardEvent[]): ReadonlyMap<string, BoardCell> {
  const [cells, setCells] = useState<ReadonlyMap<string, BoardCell>>(() => new Map());
  // Event id → asked past the cache; the loop that drains it, tied to the showing screen's controller.
  const queue = useRef({ due: new Map<string, boolean>(), events, controller: null as AbortController | null, draining: null as AbortController | null });
  queue.current.events = events;

  const drain = async () => {
    const current = queue.current;
    const controller = current.controller;
    if (!controller || current.draining === controller) return;
    current.draining = controller;
    try {
      while (!controller.signal.aborted) {
        const byId = new Map(current.events.map((event) => [event.eventId, event]));
        for (const eventId of current.due.keys()) if (!byId.has(eventId)) current.due.delete(eventId);
        const { eventIds, fresh } = nextBatch(current.due, [...byId.keys()], BATCH);
        if (eventIds.length === 0) break;
        for (const eventId of eventIds) current.due.delete(eventId);
        const rows = await askFor(
          eventIds.map((eventId) => byId.get(eventId)!),
          fresh,
          controller.signal,
        );
        if (rows.length > 0) setCells((before) => new Map([...before, ...rows.map(({ eventId, ...cell }) => [eventId, cell] as const)]));
      }
    } finally {
      if (current.draining === controller) current.draining = null;
    }
  };

  useEffect(() => {
    const controller = new AbortController();
    queue.current.controller = controller;
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const { due } = queue.current;
    for (const event of events) if (!due.has(event.eventId)) due.set(event.eventId, false);
    void drain();
  }, [events]);

  useMarketUpdates(({ eventId }) => {
    queue.current.due.set(eventId, true);
    void drain();
  });

  return cells;
}
