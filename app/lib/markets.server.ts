/**
 * Market analysis on the server (docs/product.md §2.13, §2.14): the events of every sport with the
 * green-book flags, the liability board's books (issue 21), one event's book (optionally one
 * client's) with its scorecard, and the palette's event search by team name.
 */
import type { AppLoadContext } from "@remix-run/node";
import { createHash } from "node:crypto";
import { z } from "zod";
import { SPORTS, type MarketBets, type SportName, type SportsEvent } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { MARKET_DETAIL_USERS } from "./constants";
import { inBatches } from "../machines/in-batches";
import { orRouteError } from "./route-errors.server";
import { SEARCH_LIMIT, searchSources } from "./search.server";
import { callAsOperator, requireSession } from "./session.server";

const allEvents = (request: Request, context: AppLoadContext) =>
  Promise.all(SPORTS.map(async (sport) => ({ sport, events: await callAsOperator(request, context, "matches", { sport }) })));

/** docs/product.md §2.13: a heading per sport, in play first (the platform's order), and which events are green. */
export async function loadMarketList(request: Request, context: AppLoadContext) {
  const sports = await orRouteError(allEvents(request, context));
  const eventIds = sports.flatMap(({ events }) => events.map((event) => event.eventId));
  const green = eventIds.length === 0 ? {} : await orRouteError(callAsOperator(request, context, "marketGreen", { eventIds }));
  return { sports, green };
}

export type MarketListData = Awaited<ReturnType<typeof loadMarketList>>;

/** Upstream `/market-bets` calls one board request makes at once: the spec has no call for many events. */
export const BOARD_CONCURRENCY = 4;
/** Events one board request asks for; the browser asks batch after batch, so rows fill as they come. */
export const BOARD_BATCH = 8;
/**
 * How long an operator's reading of an event's book is reused: under the 10 s poll, so each poll
 * reads anew, while other tabs and reloads in between share one reading.
 */
export const BOARD_CACHE_MS = 5_000;

export type BoardQuery = { sport: SportName; eventId: string };
export type BoardBook = { eventId: string } & ({ book: MarketBets } | { error: string });

/**
 * Books of events per operator, at most `concurrency` upstream calls at a time per request. A
 * reading younger than `ttlMs` (or still under way) is shared unless `fresh` asks past it (a
 * `market-update` named the event); a refusal answers its message for that event alone and is not kept.
 */
export function createBookCache({ ttlMs = BOARD_CACHE_MS, concurrency = BOARD_CONCURRENCY, now = Date.now } = {}) {
  const readings = new Map<string, { at: number; book: Promise<MarketBets> }>();
  return {
    books(operator: string, events: readonly BoardQuery[], call: (event: BoardQuery) => Promise<MarketBets>, fresh = false): Promise<BoardBook[]> {
      const startedAt = now();
      for (const [key, reading] of readings) if (startedAt - reading.at >= ttlMs) readings.delete(key);
      return inBatches(events, concurrency, async (event): Promise<BoardBook> => {
        const key = `${operator}\u0000${event.sport}\u0000${event.eventId}`;
        let reading = fresh ? undefined : readings.get(key);
        if (!reading) {
          const made = { at: now(), book: call(event) };
          readings.set(key, made);
          made.book.catch(() => readings.get(key) === made && readings.delete(key));
          reading = made;
        }
        try {
          return { eventId: event.eventId, book: await reading.book };
        } catch (error) {
          if (error instanceof ApiError) return { eventId: event.eventId, error: error.message };
          throw error;
        }
      });
    },
  };
}

const bookCache = createBookCache();
/** Readings are kept per session token, which is never kept itself. */
const operatorKey = (token: string) => createHash("sha256").update(token).digest("base64url");

const boardQuery = z.object({
  events: z
    .array(z.string().regex(new RegExp(`^(${SPORTS.join("|")}):[\\w-]{1,64}$`)))
    .min(1)
    .max(BOARD_BATCH),
  fresh: z.literal("1").optional(),
});

/** The board's figures (`summarise` of each book) for `?event=<sport>:<eventId>`…, `&fresh=1` past the cache. */
export async function loadBoard<Figures>(request: Request, context: AppLoadContext, summarise: (book: MarketBets) => Figures) {
  const params = new URL(request.url).searchParams;
  const parsed = boardQuery.safeParse({ events: params.getAll("event"), fresh: params.get("fresh") ?? undefined });
  if (!parsed.success) throw new Response("Bad Request", { status: 400 });
  const events = parsed.data.events.map((text): BoardQuery => {
    const [sport, eventId] = text.split(":") as [SportName, string];
    return { sport, eventId };
  });
  const books = await boardBooks(request, context, events, parsed.data.fresh === "1");
  return books.map((row) => ("book" in row ? { eventId: row.eventId, figures: summarise(row.book) } : row));
}

/** The board's reading of these events' books, shared with the board through its cache. */
async function boardBooks(request: Request, context: AppLoadContext, events: readonly BoardQuery[], fresh = false) {
  const { token } = await requireSession(request);
  // The board counts an event's users and lists none (an API without usersLimit lists them all).
  const read = (event: BoardQuery) => callAsOperator(request, context, "marketBets", { ...event, usersLimit: 0 });
  return bookCache.books(operatorKey(token), events, read, fresh);
}

/**
 * Home's risk line: the `count` events of every sport with the worst case (`worstCaseOf`, the
 * board's figure), and how many events' books could not be read.
 */
export async function worstEvents(request: Request, context: AppLoadContext, worstCaseOf: (book: MarketBets) => number, count: number) {
  const events = (await allEvents(request, context)).flatMap(({ sport, events }) => events.map((event) => ({ sport, event })));
  const books = await boardBooks(request, context, events.map(({ sport, event }) => ({ sport, eventId: event.eventId })));
  const read = books.flatMap((row, index) => ("book" in row ? [{ label: eventLabel(events[index]!.event), worstCase: worstCaseOf(row.book) }] : []));
  return {
    worst: read.filter((event) => event.worstCase < 0).sort((a, b) => a.worstCase - b.worstCase).slice(0, count),
    unread: books.length - read.length,
  };
}

const detailParams = z.object({ sport: z.enum(SPORTS), eventId: z.string().regex(/^[\w-]{1,64}$/) });
const detailQuery = z.object({ client: z.string().regex(/^\d{1,19}$/).optional().catch(undefined) });

/** docs/product.md §2.14: the event, its book (of `?client=` alone when given) and its scorecard's address. */
export async function loadMarketDetail(request: Request, context: AppLoadContext, params: Record<string, string | undefined>) {
  const parsed = detailParams.safeParse(params);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const { sport, eventId } = parsed.data;
  const { client } = detailQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [book, events, scorecard] = await Promise.all([
    orRouteError(callAsOperator(request, context, "marketBets", { eventId, sport, usersLimit: MARKET_DETAIL_USERS, ...(client ? { client } : {}) })),
    orRouteError(callAsOperator(request, context, "matches", { sport })),
    // The frame is optional (docs/product.md §2.14): the book shows without it.
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
