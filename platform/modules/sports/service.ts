/** Sports data as the admin API and the scorecard page answer it. */
import { SPORTS, type SportCode, type SportsEvent } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { notFound } from "../../errors.js";
import type { BookScope } from "./book-repository.js";
import { marketBets, marketGreen } from "./book.js";
import { findEvent, listEvents } from "./repository.js";

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

  /** GET /market-bets: the event's book. */
  const book = (eventId: string, scope: BookScope) => marketBets(db, eventId, scope);

  return { events, event, green, book };
}
