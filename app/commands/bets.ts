/**
 * The settlement desk's commands (spec §2.15, §4): `s` success, `f` fail, `v` abandoned on the
 * cursor row or the selection, answered `y` / `n` in the one confirmation; the palette's Settle
 * market…, Settle bet…, Void bets of event… and Resettle bet… (super admin); and the bet
 * history's tabs `1`–`3` (spec §2.9).
 */
import { BET_KIND } from "../../protocol/wire";
import { OUTCOME_PROBLEM, outcomeCodeOf } from "../lib/forms/settlement";
import { SCREENS } from "../lib/screens";
import type { Command, ScreenCommand } from "./types";

const desk = (id: string, title: string, keys: string[]) => ({ id, title, group: "Bets", scope: "bets", keys }) as const satisfies ScreenCommand;
const history = (id: string, title: string, keys: string[]) =>
  ({ id, title, group: "Bets", scope: "bet-history", keys }) as const satisfies ScreenCommand;

/** The bet history's tab commands' ids, by `BET_KIND`. */
export const betTabCommandId = (kind: number) => `bet-history.tab-${kind}` as const;

export const BET_SCREEN_COMMANDS = [
  desk("bets.success", "Success: settle the cursor bet or the selection as won…", ["s"]),
  desk("bets.fail", "Fail: settle the cursor bet or the selection as lost…", ["f"]),
  desk("bets.abandon", "Abandoned: void the cursor bet or the selection…", ["v"]),
  desk("bets.confirm", "Yes: run the settlement being asked", ["y"]),
  desk("bets.decline", "No: settle nothing", ["n"]),
  history(betTabCommandId(BET_KIND.sports), "Sports tab", ["1"]),
  history(betTabCommandId(BET_KIND.casino), "Casino tab", ["2"]),
  history(betTabCommandId(BET_KIND.games), "Games tab", ["3"]),
  history("bet-history.download", "Download Bets (CSV of this tab and dates)", ["d"]),
] as const;

const PENDING = SCREENS["pending-sport-bets"].path;

/** The desk's address with these parameters, keeping its filters where the command starts on it. */
const deskAddress = (location: { pathname: string; search: string }, add: Record<string, string>) => {
  const params = new URLSearchParams(location.pathname === PENDING ? location.search : "");
  for (const name of ["open", "settle", "void", "outcome", "page"]) params.delete(name);
  for (const [name, value] of Object.entries(add)) params.set(name, value);
  return `${PENDING}?${params}`;
};

const outcomeStep = {
  kind: "text",
  name: "outcome",
  label: "Outcome: success, fail or abandoned (s, f, v)",
  check: (value: string) => (outcomeCodeOf(value) === undefined ? OUTCOME_PROBLEM : null),
} as const;

export const BET_PALETTE_COMMANDS: readonly Command[] = [
  {
    id: "bets.settle-market",
    title: "Settle market…",
    group: "Bets",
    keywords: ["result", "winner", "settle event", "runs"],
    access: SCREENS["pending-sport-bets"],
    // The desk asks event, market and result, previews, then confirms once.
    run: ({ navigate, location }) => navigate(deskAddress(location, { settle: "1" })),
  },
  {
    id: "bets.void-event",
    title: "Void bets of event…",
    group: "Bets",
    keywords: ["abandon", "cancel event", "refund"],
    access: SCREENS["pending-sport-bets"],
    run: ({ navigate, location }) => navigate(deskAddress(location, { void: "1" })),
  },
  {
    id: "bets.settle-bet",
    title: "Settle bet…",
    group: "Bets",
    keywords: ["success", "fail", "abandon", "one bet"],
    access: SCREENS["pending-sport-bets"],
    steps: [{ kind: "pick", name: "bet", label: "Pending bet", source: "bets" }, outcomeStep],
    // The desk opens on the bet's market with the cursor on it and asks its confirmation.
    run: ({ navigate }, answers) =>
      navigate(
        `${PENDING}?${new URLSearchParams({
          eventId: answers["bet.eventId"]!,
          ...(answers["bet.marketId"] ? { marketId: answers["bet.marketId"] } : {}),
          user: answers["bet.userId"]!,
          open: answers.bet!,
          outcome: String(outcomeCodeOf(answers.outcome!)),
        })}`,
      ),
  },
  {
    id: "bets.history",
    title: "Bet history of user…",
    group: "Bets",
    keywords: ["bets", "casino", "games", "profit", "download bets"],
    access: SCREENS["user-bets"],
    steps: [{ kind: "pick", name: "user", label: "User", source: "accounts" }],
    run: ({ navigate }, answers) =>
      navigate(`${SCREENS["user-bets"].path}?${new URLSearchParams({ user: answers.user!, username: answers["user.label"] ?? "" })}`),
  },
  {
    id: "bets.resettle",
    title: "Resettle bet…",
    group: "Bets",
    keywords: ["correct", "reverse", "change result"],
    access: { audience: "superAdmin" },
    steps: [
      { kind: "text", name: "bet", label: "Bet ID", check: (value) => (/^\d{1,19}$/.test(value.trim()) ? null : "Bet ID must be a number") },
      outcomeStep,
      { kind: "confirm", name: "confirm", label: (answers) => `Resettle bet ${answers.bet} as ${answers.outcome}?` },
    ],
    run: ({ submitAction }, answers) =>
      submitAction(PENDING, { intent: "resettle", bet: answers.bet!.trim(), status: answers.outcome! }),
  },
];
