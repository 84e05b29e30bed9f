/**
 * The settlement desk's commands (docs/product.md §2.15, §4): `s` success, `f` fail, `v` abandoned on the
 * cursor row or the selection, answered `y` / `n` in the one confirmation; the palette's Settle
 * market… (event, then one of its markets, as arguments), Void bets of event… (the event), Settle
 * bet… and Resettle bet… (super admin); and the bet history's tabs `1`–`3` (docs/product.md §2.9).
 */
import { BET_KIND } from "../../protocol/wire";
import type { BetHit, MarketTotal } from "../lib/bets.server";
import { OUTCOME_PROBLEM, outcomeCodeOf } from "../lib/forms/settlement";
import { SCREENS } from "../lib/screens";
import type { Answers } from "../machines/palette.machine";
import { eventOfDetailPath } from "./markets";
import { useChoiceList } from "./use-choice-list";
import { useServerSearch } from "./use-server-search";
import type { Command, PickSource, PickSources, ScreenCommand } from "./types";

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

type Location = { pathname: string; search: string };

/**
 * The desk's address with these parameters, keeping its filters where the command starts on it
 * (a market filter only when `add` names the market again: it belongs to the event it replaces).
 */
const deskAddress = (location: Location, add: Record<string, string>) => {
  const params = new URLSearchParams(location.pathname === PENDING ? location.search : "");
  for (const name of ["open", "settle", "void", "outcome", "page", "marketId"]) params.delete(name);
  for (const [name, value] of Object.entries(add)) params.set(name, value);
  return `${PENDING}?${params}`;
};

/**
 * The event (and market) the showing screen is on, as Settle market…'s answers: an event's
 * market analysis, or the desk filtered to an event (and a market).
 */
function eventAnswersOf(location: Location): Answers {
  const onDetail = eventOfDetailPath(location.pathname);
  if (onDetail) return { event: onDetail };
  if (location.pathname !== PENDING) return {};
  const params = new URLSearchParams(location.search);
  const event = params.get("eventId");
  const market = params.get("marketId");
  return event ? { event, ...(market ? { market } : {}) } : {};
}

/** The desk on one bet: its market and user's pending bets, the cursor on it; `add`: what the desk asks next. */
const betAddress = (bet: Pick<BetHit, "id" | "eventId" | "marketId" | "userId">, add: Record<string, string> = {}) =>
  `${PENDING}?${new URLSearchParams({ eventId: bet.eventId, ...(bet.marketId ? { marketId: bet.marketId } : {}), user: bet.userId, open: bet.id, ...add })}`;

const SETTLE_CHOICES = "/resources/bets/settle-choices";
// Module-level: useChoiceList ranks anew only when its choices change.
const eventTitle = (total: MarketTotal) => total.event;
const marketTitle = (total: MarketTotal) => total.market;
const pendingCount = (total: MarketTotal) => `${total.count} pending ${total.count === 1 ? "bet" : "bets"}`;

export const BET_PICK_SOURCES: PickSources = {
  /** `#` and Settle bet…: pending bets by id, username or event, on the server. */
  bets: {
    label: "Pending bet",
    placeholder: "Search bet id, username or event",
    idle: "Type a bet id, username or event",
    useFound: (term) => useServerSearch<BetHit>("/resources/bets/search", term),
    row: (hit) => ({
      key: hit.id,
      title: `#${hit.id} ${hit.username}`,
      detail: `${hit.event} · ${hit.market} · ${hit.runner}`,
      group: "bet",
      amount: hit.amount,
    }),
    answer: (hit) => ({
      value: hit.id,
      extra: { label: `#${hit.id} ${hit.username}`, eventId: hit.eventId, marketId: hit.marketId, userId: hit.userId },
    }),
    mode: { prefix: "#", noun: "bets", address: (hit) => betAddress(hit) },
  } satisfies PickSource<BetHit>,
  /** Settle market…, Void bets of event…, Void late bets…: the events with pending bets, narrowed by team name. */
  "pending-events": {
    label: "Event",
    placeholder: "Filter by team name",
    idle: "No pending bets",
    useFound: (term) => useChoiceList(SETTLE_CHOICES, term, eventTitle),
    row: (total) => ({ key: total.eventId, title: total.event, detail: pendingCount(total), group: "event", amount: total.exposure }),
    answer: (total) => ({ value: total.eventId, extra: { label: total.event } }),
  } satisfies PickSource<MarketTotal>,
  /** Settle market…: the markets with pending bets of the event the step's `event` names, narrowed by name. */
  markets: {
    label: "Market",
    placeholder: "Filter by market name",
    idle: "No pending bets on this event",
    useFound: (term, earlier) => useChoiceList(`${SETTLE_CHOICES}?${new URLSearchParams({ eventId: earlier("event") })}`, term, marketTitle),
    row: (total) => ({ key: total.marketId, title: total.market, detail: pendingCount(total), group: total.event, amount: total.exposure }),
    answer: (total) => ({ value: total.marketId, extra: { label: total.market } }),
  } satisfies PickSource<MarketTotal>,
};

const eventStep = { kind: "pick", name: "event", label: "Event with pending bets", source: "pending-events" } as const;

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
    steps: [eventStep, { kind: "pick", name: "market", label: "Market with pending bets", source: "markets", event: "event" }],
    screenAnswers: eventAnswersOf,
    // The desk's dialog opens on that market and asks its result, previews, then confirms once.
    run: ({ navigate, location }, answers) =>
      navigate(deskAddress(location, { eventId: answers.event!, marketId: answers.market!, settle: "1" })),
  },
  {
    id: "bets.void-event",
    title: "Void bets of event…",
    group: "Bets",
    keywords: ["abandon", "cancel event", "refund"],
    access: SCREENS["pending-sport-bets"],
    steps: [eventStep],
    screenAnswers: (location): Answers => {
      const { event } = eventAnswersOf(location);
      return event ? { event } : {};
    },
    // The desk's dialog opens on that event: its bets to void, then the one confirmation.
    run: ({ navigate, location }, answers) => navigate(deskAddress(location, { eventId: answers.event!, void: "1" })),
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
        betAddress(
          { id: answers.bet!, eventId: answers["bet.eventId"]!, marketId: answers["bet.marketId"]!, userId: answers["bet.userId"]! },
          { outcome: String(outcomeCodeOf(answers.outcome!)) },
        ),
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
    extension: "resettleBet",
    steps: [
      { kind: "text", name: "bet", label: "Bet ID", check: (value) => (/^\d{1,19}$/.test(value.trim()) ? null : "Bet ID must be a number") },
      outcomeStep,
      { kind: "confirm", name: "confirm", label: (answers) => `Resettle bet ${answers.bet} as ${answers.outcome}?` },
    ],
    run: ({ submitAction }, answers) =>
      submitAction(PENDING, { intent: "resettle", bet: answers.bet!.trim(), status: answers.outcome! }),
  },
];
