/**
 * Market analysis's commands (docs/product.md §2.13, §2.14): Open market… in the palette; on the list `t`,
 * the board's order (worst case first, or start time); on the detail screen the keys that act on
 * the runner or fancy entry under the cursor (its pending bets, Settle market… with it filled in)
 * and cycle the users row. The cursor keys, Enter (Run Amount on a fancy entry) and Esc (clear
 * the user) are the list kit's. The list and the detail share the `markets` scope, so `?` lists
 * both screens' keys on each.
 */
import { SCREENS } from "../lib/screens";
import type { Command, ScreenCommand } from "./types";

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
