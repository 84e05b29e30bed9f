/**
 * The settlement workspace's commands (issue 18): on `/settlement`, `y` settles the cursor market
 * (or the selection) as the feed reported, `c` corrects its result, `v` voids it, `i` takes in bets
 * that arrived after the preview (Enter, the list kit's, opens the preview); `l` there and on the
 * pending queue, and the palette's Void late bets…, void the bets placed inside a time window.
 */
import { SCREENS } from "../lib/screens";
import type { Answers } from "../machines/palette.machine";
import type { Command, ScreenCommand } from "./types";

const desk = (id: string, title: string, keys: string[]) => ({ id, title, group: "Bets", scope: "settlement", keys }) as const satisfies ScreenCommand;

export const VOID_LATE_BETS = "settlement.void-late-bets";

export const SETTLEMENT_SCREEN_COMMANDS = [
  desk("settlement.settle", "Settle the cursor market or the selection as the feed reported…", ["y"]),
  desk("settlement.correct", "Correct the cursor market's result (another runner, the run count)…", ["c"]),
  desk("settlement.void", "Void the cursor market…", ["v"]),
  desk("settlement.include", "Include the bets that arrived after the preview", ["i"]),
  { id: "settlement.void-late", title: "Void late bets of the cursor market or event…", group: "Bets", scope: "late-bets", keys: ["l"] },
] as const satisfies readonly ScreenCommand[];

/** Where the workspace opens Void late bets… on an event (and one of its markets). */
export const voidLateAddress = (eventId: string, marketId?: string) =>
  `${SCREENS.settlement.path}?${new URLSearchParams({ late: "1", eventId, ...(marketId ? { marketId } : {}) })}`;

export const SETTLEMENT_PALETTE_COMMANDS: readonly Command[] = [
  {
    id: VOID_LATE_BETS,
    title: "Void late bets…",
    group: "Bets",
    keywords: ["late", "window", "incident", "feed delay", "bet cancel"],
    access: SCREENS.settlement,
    steps: [{ kind: "pick", name: "event", label: "Event with pending bets", source: "pending-events" }],
    // The pending queue filtered to an event (and market) gives them.
    screenAnswers: (location): Answers => {
      const params = new URLSearchParams(location.search);
      const event = params.get("eventId");
      const market = params.get("marketId");
      return event ? { event, ...(market ? { market } : {}) } : {};
    },
    // The workspace's dialog asks the market (or every one), the window, previews, then confirms once.
    run: ({ navigate }, answers) => navigate(voidLateAddress(answers.event!, answers.market)),
  },
];
