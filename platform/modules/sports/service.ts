/** Sports data as the admin API and the scorecard page answer it. */
import { SPORTS, type ClosedMarket, type Page, type SportCode, type SportsEvent } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { notFound } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { pageOf, type PageRequest } from "../../validation/schemas.js";
import type { BookScope } from "./book-repository.js";
import { marketBets, marketGreen } from "./book.js";
import { countClosedMarkets, findEvent, listClosedMarkets, listEvents, type ClosedFilter } from "./repository.js";

export const SPORTS_MESSAGE = { eventNotFound: "Event not found" } as const;

export function createSportsService({ db }: { db: Db }) {
  /** GET /matches/:sport: the sport's events. */
  async function events(sport: (typeof SPORTS)[number]): Promise<SportsEvent[]> {
    const rows = await listEvents(db, SPORTS.indexOf(sport));
    return rows.map((row) => ({
      eventId: row.event_id,
      sport: row.sport as SportCode,
      teamA: row.team_a,
      teamB: row.team_b,
      inplay: row.inplay,
      startTime: row.start_time.toISOString(),
    }));
  }

  /** The event, when it exists and (if named) is of that sport; 404 otherwise. */
  async function event(eventId: string, sport?: (typeof SPORTS)[number]) {
    const found = await findEvent(db, eventId);
    if (!found || (sport !== undefined && SPORTS[found.sport] !== sport)) throw notFound(SPORTS_MESSAGE.eventNotFound);
    return found;
  }

  /** POST /market-green; `within`: a partner's id (its subtree's book), null for the house. */
  const green = (eventIds: string[], within: bigint | null) => marketGreen(db, eventIds, { within });

  /** GET /market-bets: the event's book; its users all, or the first `usersLimit`. */
  const book = (eventId: string, scope: BookScope, usersLimit?: number) => marketBets(db, eventId, scope, usersLimit);

  /** GET /market-results: closed markets that still hold pending bets, oldest closing first. */
  const closedMarkets = (filter: ClosedFilter, paging: PageRequest): Promise<Page<ClosedMarket>> =>
    pageOf(paging, async (slice) => (await listClosedMarkets(db, filter, slice)).map(toClosedMarket), () => countClosedMarkets(db, filter));

  return { events, event, green, book, closedMarkets };
}

function toClosedMarket(row: Awaited<ReturnType<typeof listClosedMarkets>>[number]): ClosedMarket {
  return {
    eventId: row.event_id,
    event: `${row.team_a} v ${row.team_b}`,
    sport: SPORTS[row.sport]!,
    marketId: row.market_id,
    market: row.name,
    type: row.type,
    // closedMarkets lists only markets closed with their result (closed_at is set by closeMarket).
    result: row.result ?? "",
    closedAt: row.closed_at!.toISOString(),
    pending: Number(row.pending),
    stake: minorToAmount(BigInt(row.stake)),
    exposure: minorToAmount(BigInt(row.exposure)),
  };
}
