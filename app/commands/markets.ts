/**
 * Market analysis's commands (docs/product.md §2.13, §2.14): Open market… in the palette; on the list `t`,
 * the board's order (worst case first, or start time); on the detail screen the keys that act on
 * the runner or fancy entry under the cursor (its pending bets, Settle market… with it filled in)
 * and cycle the users row. The cursor keys, Enter (Run Amount on a fancy entry) and Esc (clear
 * the user) are the list kit's. The list and the detail share the `markets` scope, so `?` lists
 * both screens' keys on each.
 */
import type { EventHit } from "../lib/markets.server";
import { SCREENS } from "../lib/screens";
import { useServerSearch } from "./use-server-search";
import type { Command, PickSource, PickSources, ScreenCommand } from "./types";

/** The desk an event's detail lives at. */
export const marketDetailPath = (sport: string, eventId: string) => `${SCREENS.markets.path}/${sport}/${encodeURIComponent(eventId)}`;

/** The event whose detail `pathname` shows (`marketDetailPath`'s inverse), or undefined elsewhere. */
export function eventOfDetailPath(pathname: string): string | undefined {
  const prefix = `${SCREENS.markets.path}/`;
  const [sport, eventId, ...rest] = pathname.startsWith(prefix) ? pathname.slice(prefix.length).split("/") : [];
  if (!sport || !eventId || rest.length > 0) return undefined;
  try {
    return decodeURIComponent(eventId);
  } catch {
    return undefined;
  }
}

export const MARKET_PICK_SOURCES: PickSources = {
  /** `#` and Open market…: events by team name, on the server; an event opens its market analysis. */
  events: {
    label: "Event",
    placeholder: "Search team name",
    idle: "Type a team name",
    useFound: (term) => useServerSearch<EventHit>("/resources/markets/search", term),
    row: (hit) => ({ key: hit.eventId, title: hit.label, flag: hit.inplay ? "(Live)" : undefined, group: hit.sport }),
    answer: (hit) => ({ value: hit.eventId, extra: { label: hit.label, sport: hit.sport } }),
    mode: { prefix: "#", noun: "events", address: (hit) => marketDetailPath(hit.sport, hit.eventId) },
  } satisfies PickSource<EventHit>,
};

export const MARKET_PALETTE_COMMANDS: readonly Command[] = [
  {
    id: "markets.open-event",
    title: "Open market…",
    group: "Markets",
    keywords: ["event", "match", "book", "analysis"],
    access: SCREENS.markets,
    steps: [{ kind: "pick", name: "event", label: "Event", source: "events" }],
    run: ({ navigate }, answers) => navigate(marketDetailPath(answers["event.sport"]!, answers.event!)),
  },
];

const desk = (id: string, title: string, keys: string[]) => ({ id, title, group: "Markets", scope: "markets", keys }) as const satisfies ScreenCommand;

export const MARKET_SCREEN_COMMANDS = [
  desk("markets.sort", "Order the board by worst case or by start time", ["t"]),
  desk("markets.pending", "Pending bets of the cursor market", ["o"]),
  desk("markets.settle", "Settle the cursor market…", ["s", "S"]),
  desk("markets.next-user", "Filter by the next user of the users row", ["u"]),
  desk("markets.previous-user", "Filter by the previous user of the users row", ["U"]),
] as const;
