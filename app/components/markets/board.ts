/**
 * The liability board's arithmetic (Market Analysis, issue 21): each event's figures from its
 * `/market-bets` answer, the board's two orders, and which events to ask for next.
 */
import type { MarketBets, SportName, SportsEvent } from "../../../protocol/wire";
import { eventWorstCase } from "./book";

/**
 * What the board shows of an event's book. `/market-bets` counts no bets and gives no stake on odds
 * or bookmaker runners, so the board shows the users holding open bets and the fancy lines' open
 * stake, named as such, rather than a count or a total it would have to invent.
 */
export type BoardFigures = { worstCase: number; bettors: number; fancyStake: number };

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The worst case is the detail screen's (book.ts), so the board and an event's screen agree. */
export const boardFigures = (book: MarketBets): BoardFigures => ({
  worstCase: eventWorstCase(book),
  // The API's count where it gives one (the board asks for no names), else the names it listed.
  bettors: book.usersTotal ?? book.users.length,
  fancyStake: round2(
    Object.values(book.fancy)
      .flat()
      .reduce((sum, entry) => sum + entry.amounts, 0),
  ),
});

/** One event's figures as the board's resource answers them: the figures, or why there are none. */
export type BoardCell = { figures: BoardFigures } | { error: string };

export const BOARD_ORDERS = ["worst", "start"] as const;
export type BoardOrder = (typeof BOARD_ORDERS)[number];
export const BOARD_ORDER_LABELS: Record<BoardOrder, string> = { worst: "worst case first", start: "start time" };

export type BoardEvent = SportsEvent & { sportName: SportName };

/**
 * The events of one sport in the board's order. By worst case: the largest loss first, events
 * whose figures have not arrived (or failed) after those that have; by start time: the earliest
 * first. Ties keep the platform's order (in play first), so a reload does not shuffle them.
 */
export function orderEvents<Event extends SportsEvent>(events: readonly Event[], order: BoardOrder, cells: ReadonlyMap<string, BoardCell>): Event[] {
  const worst = (event: Event) => {
    const cell = cells.get(event.eventId);
    return cell && "figures" in cell ? cell.figures.worstCase : Number.POSITIVE_INFINITY;
  };
  const key = order === "worst" ? worst : (event: Event) => Date.parse(event.startTime);
  return events
    .map((event, index) => ({ event, index, key: key(event) }))
    .sort((a, b) => (a.key === b.key ? a.index - b.index : a.key < b.key ? -1 : 1))
    .map(({ event }) => event);
}

/**
 * The next events to ask for: those a `market-update` named first (asked past the server's cache),
 * then the rest, each in the board's order. One batch is either fresh or not.
 */
export function nextBatch(due: ReadonlyMap<string, boolean>, order: readonly string[], size: number): { eventIds: string[]; fresh: boolean } {
  const fresh = order.some((eventId) => due.get(eventId) === true);
  return { eventIds: order.filter((eventId) => due.has(eventId) && due.get(eventId) === fresh).slice(0, size), fresh };
}
