/** Sports data as the admin API and the scorecard page answer it. */
import { SPORTS, type SportCode, type SportsEvent } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { notFound } from "../../errors.js";
import { findEvent, listEvents } from "./repository.js";

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

  /** The event a scorecard page shows (404 when there is none). */
  async function scorecard(eventId: string) {
    const event = await findEvent(db, eventId);
    if (!event) throw notFound("Event not found");
    return event;
  }

  return { events, scorecard };
}
