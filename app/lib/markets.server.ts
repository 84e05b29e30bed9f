/**
 * Market analysis on the server (spec §2.13, §2.14): the events of every sport with the
 * green-book flags, one event's book (optionally one client's) with its scorecard, and the
 * palette's event search by team name.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { SPORTS, type SportName, type SportsEvent } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { orRouteError } from "./route-errors.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import { callAsOperator } from "./session.server";

const allEvents = (request: Request, context: AppLoadContext) =>
  Promise.all(SPORTS.map(async (sport) => ({ sport, events: await callAsOperator(request, context, "matches", { sport }) })));

/** Spec §2.13: a heading per sport, in play first (the platform's order), and which events are green. */
export async function loadMarketList(request: Request, context: AppLoadContext) {
  const sports = await orRouteError(allEvents(request, context));
  const eventIds = sports.flatMap(({ events }) => events.map((event) => event.eventId));
  const green = eventIds.length === 0 ? {} : await orRouteError(callAsOperator(request, context, "marketGreen", { eventIds }));
  return { sports, green };
}

export type MarketListData = Awaited<ReturnType<typeof loadMarketList>>;

const detailParams = z.object({ sport: z.enum(SPORTS), eventId: z.string().regex(/^[\w-]{1,64}$/) });
const detailQuery = z.object({ client: z.string().regex(/^\d{1,19}$/).optional().catch(undefined) });

/** Spec §2.14: the event, its book (of `?client=` alone when given) and its scorecard's address. */
export async function loadMarketDetail(request: Request, context: AppLoadContext, params: Record<string, string | undefined>) {
  const parsed = detailParams.safeParse(params);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const { sport, eventId } = parsed.data;
  const { client } = detailQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [book, events, scorecard] = await Promise.all([
    orRouteError(callAsOperator(request, context, "marketBets", { eventId, sport, ...(client ? { client } : {}) })),
    orRouteError(callAsOperator(request, context, "matches", { sport })),
    // The frame is optional (spec §2.14): the book shows without it.
    callAsOperator(request, context, "scorecard", { eventId, sport }).then(
      (answer) => answer.url,
      (error: unknown) => {
        if (error instanceof ApiError) return null;
        throw error;
      },
    ),
  ]);
  const event = events.find((each) => each.eventId === eventId);
  return { sport, eventId, client: client ?? null, event: event ?? null, book, scorecard };
}

export type MarketDetailData = Awaited<ReturnType<typeof loadMarketDetail>>;

/** What `#` and Open market… find: events whose team names match. */
export type EventHit = { eventId: string; sport: SportName; label: string; inplay: boolean };

export const eventLabel = (event: Pick<SportsEvent, "teamA" | "teamB">) => `${event.teamA} v ${event.teamB}`;

export function searchEvents(request: Request, context: AppLoadContext, term: string) {
  const needle = term.toLowerCase();
  return searchSources<EventHit>(
    SPORTS.map((sport) => async () =>
      (await callAsOperator(request, context, "matches", { sport }))
        .filter((event) => eventLabel(event).toLowerCase().includes(needle))
        .slice(0, SEARCH_LIMIT)
        .map((event) => ({ eventId: event.eventId, sport, label: eventLabel(event), inplay: event.inplay })),
    ),
  );
}
