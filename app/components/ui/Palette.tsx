/**
 * The command palette (cmdk). Filtering and ranking are ours (`shouldFilter={false}`), and vim
 * bindings are off so Ctrl+K is never eaten. Plain text finds commands and the users and panels
 * seen this session; `>` restricts to commands, `@` searches users and panels on the server, `#`
 * pending deposit and withdrawal requests by username or UTR, pending bets by id, user or event,
 * and events by team name. A command with steps asks for its arguments one at a time
 * (palette.machine.ts), less those the showing screen already answers (an event's screen, its
 * event); a pick step's list may depend on an earlier answer (an event's markets). Backspace on
 * an empty answer goes back a step, Esc closes.
 */
import { useActorRef, useSelector } from "@xstate/react";
import { useNavigate } from "@remix-run/react";
import { Command as Cmdk } from "cmdk";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { fromPromise } from "xstate";
import { Keys } from "./Keys";
import { Overlay } from "./Overlay";
import type { AccountHit } from "../../lib/accounts.server";
import type { BetHit, MarketTotal } from "../../lib/bets.server";
import type { EventHit } from "../../lib/markets.server";
import type { RequestHit } from "../../lib/requests.server";
import { announce } from "../../lib/feedback";
import { formatMoney } from "../../lib/format";
import { currentStep, paletteMachine, type Answers, type Step } from "../../machines/palette.machine";
import { accountCacheVersion, cachedAccounts, subscribeAccountCache } from "../../commands/account-cache";
import { createIncrementalRanker, prepare } from "../../commands/rank";

/** About the rows the palette shows at once, and some to scroll: rendering more costs keystrokes. */
const RESULT_LIMIT = 30;
import type { Command, CommandContext, OfferedCommand } from "../../commands/types";
import {
  useAccountSearch,
  useBetSearch,
  useEventSearch,
  usePendingEvents,
  usePendingMarkets,
  useRequestSearch,
} from "../../commands/use-searches";
import { marketDetailPath } from "../../commands/markets";

type PaletteProps = {
  /** A command with a `refusal` (an extension the operator's API lacks) shows disabled, saying why. */
  commands: readonly OfferedCommand[];
  context: CommandContext;
  /** A command a button started, with the answers it already knows; the palette asks the rest. */
  start?: { command: Command; answers: Answers } | null;
  /** Called once the chosen command has run (or the operator pressed Esc). */
  onClose: () => void;
};

export function Palette({ commands, context, start, onClose }: PaletteProps) {
  const latest = useRef({ commands, context });
  latest.current = { commands, context };
  const actor = useActorRef(
    paletteMachine.provide({
      actors: {
        runCommand: fromPromise(async ({ input }) => {
          const command = start?.command ?? latest.current.commands.find((c) => c.id === input.command.id)!;
          const outcome = await command.run(latest.current.context, input.answers);
          if (!outcome) return;
          announce(outcome);
          if (!outcome.ok) throw new Error(outcome.message);
        }),
      },
    }),
  );
  useEffect(() => {
    if (!start) return;
    const answers = { ...screenAnswers(start.command, latest.current.context), ...start.answers };
    actor.send({ type: "palette.choose", command: start.command, answers });
  }, [actor, start]);
  const snapshot = useSelector(actor, (s) => s);
  // Done, or a button's command declined (No, or Backspace past its first open step): close.
  // (Read from the actor: the effect above has already sent the button's command this commit.)
  useEffect(() => {
    const now = actor.getSnapshot();
    if (now.status === "done" || (start && now.hasTag("choosing"))) onClose();
  }, [actor, snapshot, start, onClose]);

  const { command, error } = snapshot.context;
  const step = currentStep(snapshot.context);
  return (
    <Overlay label="Command palette" onClose={onClose} className="palette">
      {snapshot.hasTag("choosing") ? (
        <CommandList
          commands={commands}
          error={error}
          onChoose={(chosen) => actor.send({ type: "palette.choose", command: chosen, answers: screenAnswers(chosen, context) })}
          onLeave={onClose}
        />
      ) : (
        <div className="palette-step" aria-busy={snapshot.hasTag("busy")}>
          <p className="palette-crumbs">
            {command?.title}
            {step && (
              <>
                {" › "}
                <span className="accent">{stepLabel(step, snapshot.context.answers)}</span>
                <span className="dim">
                  {" "}
                  {snapshot.context.stepIndex + 1}/{command?.steps?.length}
                </span>
              </>
            )}
          </p>
          {snapshot.hasTag("busy") ? (
            <p className="dim">Working…</p>
          ) : step ? (
            <StepInput
              key={`${snapshot.context.stepIndex}-${error ?? ""}`}
              step={step}
              answers={snapshot.context.answers}
              onAnswer={(value, extra) => actor.send({ type: "palette.answer", value, extra })}
              onBack={() => actor.send({ type: "palette.back" })}
            />
          ) : null}
          {error && (
            <p className="palette-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </Overlay>
  );
}

/** What the showing screen already answers of a command (its event), so the palette asks only the rest. */
const screenAnswers = (command: Command, context: CommandContext): Answers => command.screenAnswers?.(context.location) ?? {};

const stepLabel = (step: Step, answers: Record<string, string>) =>
  step.kind === "confirm" ? step.label(answers) : step.label;

function CommandList({
  commands,
  error,
  onChoose,
  onLeave,
}: {
  commands: readonly OfferedCommand[];
  error: string | null;
  onChoose: (command: Command) => void;
  /** Called after `@` opened a record, so the palette closes. */
  onLeave: () => void;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const accountsMode = query.startsWith("@");
  const requestsMode = query.startsWith("#");
  const commandsOnly = query.startsWith(">");
  const term = commandsOnly || accountsMode || requestsMode ? query.slice(1) : query;
  const cacheVersion = useSyncExternalStore(subscribeAccountCache, accountCacheVersion, () => 0);
  const commandEntries = useMemo(() => prepare(commands.map(commandEntry)), [commands]);
  const rankCommands = useMemo(() => createIncrementalRanker(commandEntries, RESULT_LIMIT), [commandEntries]);
  const rankAll = useMemo(
    () => createIncrementalRanker([...commandEntries, ...prepare(cachedAccounts().map(accountEntry))], RESULT_LIMIT),
    // The cache's version says when its contents changed.
    [commandEntries, cacheVersion],
  );
  const results = useMemo(
    () => (accountsMode || requestsMode ? [] : (commandsOnly ? rankCommands : rankAll)(term)),
    [accountsMode, requestsMode, commandsOnly, rankCommands, rankAll, term],
  );
  const search = useAccountSearch(accountsMode ? term : "");
  const requests = useRequestSearch(requestsMode ? term : "");
  const bets = useBetSearch(requestsMode ? term : "");
  const events = useEventSearch(requestsMode ? term : "");
  const open = (hit: AccountHit) => {
    onLeave();
    navigate(`/${hit.mode}?${new URLSearchParams({ search: hit.username })}`);
  };
  const openRequest = (hit: RequestHit) => {
    onLeave();
    navigate(`/${hit.kind}s?status=0&open=${encodeURIComponent(hit.id)}`);
  };
  const openBet = (hit: BetHit) => {
    onLeave();
    navigate(betAddress(hit));
  };
  const openEvent = (hit: EventHit) => {
    onLeave();
    navigate(marketDetailPath(hit.sport, hit.eventId));
  };
  return (
    <Cmdk label="Command palette" shouldFilter={false} vimBindings={false} loop>
      <Cmdk.Input
        autoFocus
        value={query}
        onValueChange={setQuery}
        placeholder="Type a command…   > commands   @ users and panels   # requests, bets and events"
        aria-label="Command"
      />
      {(error ?? search.message ?? requests.message ?? bets.message ?? events.message) && (
        <p className="palette-error" role="alert">
          {error ?? search.message ?? requests.message ?? bets.message ?? events.message}
        </p>
      )}
      <Cmdk.List>
        {accountsMode ? (
          <AccountHits term={term} search={search} onPick={open} />
        ) : requestsMode ? (
          <>
            <RequestHits term={term} search={requests} onPick={openRequest} />
            {term.trim() && <BetHits term={term} search={bets} onPick={openBet} />}
            {events.hits.length > 0 && <EventHits term={term} search={events} onPick={openEvent} />}
          </>
        ) : (
          <>
            <Cmdk.Empty>No results</Cmdk.Empty>
            {results.map((entry) =>
              entry.kind === "command" ? (
                <Cmdk.Item
                  key={entry.command.id}
                  value={entry.command.id}
                  data-command={entry.command.id}
                  disabled={entry.command.refusal !== undefined}
                  onSelect={() => onChoose(entry.command)}
                >
                  <CommandRow command={entry.command} />
                </Cmdk.Item>
              ) : (
                <AccountItem key={`${entry.hit.mode}-${entry.hit.id}`} hit={entry.hit} onPick={open} />
              ),
            )}
          </>
        )}
      </Cmdk.List>
    </Cmdk>
  );
}

type Entry =
  | { kind: "command"; title: string; keywords?: readonly string[]; command: OfferedCommand }
  | { kind: "account"; title: string; keywords: readonly string[]; hit: AccountHit };

const commandEntry = (command: OfferedCommand): Entry => ({ kind: "command", title: command.title, keywords: command.keywords, command });
const accountEntry = (hit: AccountHit): Entry => ({
  kind: "account",
  title: hit.username,
  keywords: [hit.mode === "users" ? "user" : "panel"],
  hit,
});

/** A command's row: dimmed, saying why, when the operator's API cannot serve it (the item is disabled too). */
export function CommandRow({ command }: { command: OfferedCommand }) {
  return (
    <>
      <span className={command.refusal ? "palette-title dim" : "palette-title"}>
        {command.title}
        {command.refusal && <span className="palette-refusal"> · {command.refusal}</span>}
      </span>
      <span className="palette-group">{command.group}</span>
      {command.keys?.map((sequence) => <Keys key={sequence} sequence={sequence} />)}
    </>
  );
}

function AccountItem({ hit, onPick }: { hit: AccountHit; onPick: (hit: AccountHit) => void }) {
  return (
    <Cmdk.Item value={`${hit.mode}-${hit.id}`} onSelect={() => onPick(hit)}>
      <span className="palette-title">{hit.username}</span>
      <span className="palette-group">{hit.mode === "users" ? "user" : "panel"}</span>
      <span className="num">{formatMoney(hit.balance)}</span>
    </Cmdk.Item>
  );
}

/**
 * What a server search found, as palette items; a prompt until something is typed. Without a
 * prompt (a list the server gives whole) every choice shows until the operator narrows it.
 */
function ServerHits<Hit>({
  term,
  prompt,
  empty = "No results",
  search,
  children,
}: {
  term: string;
  prompt?: string;
  /** Said when nothing is found. */
  empty?: string;
  search: { hits: readonly Hit[]; busy: boolean };
  children: (hit: Hit) => ReactNode;
}) {
  if (prompt && !term.trim()) return <p className="palette-hint dim">{prompt}</p>;
  if (search.hits.length === 0) return <p className="palette-hint dim">{search.busy ? "Searching…" : empty}</p>;
  return <>{search.hits.map(children)}</>;
}

type HitsProps<Hit> = { term: string; search: { hits: readonly Hit[]; busy: boolean }; onPick: (hit: Hit) => void };

/** Pending requests found by the server. */
const RequestHits = ({ term, search, onPick }: HitsProps<RequestHit>) => (
  <ServerHits term={term} prompt="Type a username or UTR" search={search}>
    {(hit) => (
      <Cmdk.Item key={`${hit.kind}-${hit.id}`} value={`${hit.kind}-${hit.id}`} onSelect={() => onPick(hit)}>
        <span className="palette-title">
          {hit.username} {hit.utr && <span className="dim">{hit.utr}</span>}
        </span>
        <span className="palette-group">{hit.kind === "deposit" ? "deposit" : "withdrawal"}</span>
        <span className="num">{formatMoney(hit.amount)}</span>
      </Cmdk.Item>
    )}
  </ServerHits>
);

/** The desk on a bet: its market and user's pending bets, the cursor on it. */
const betAddress = (hit: BetHit) =>
  `/pending-sport-bets?${new URLSearchParams({ eventId: hit.eventId, ...(hit.marketId ? { marketId: hit.marketId } : {}), user: hit.userId, open: hit.id })}`;

/** Pending bets found by the server. */
const BetHits = ({ term, search, onPick }: HitsProps<BetHit>) => (
  <ServerHits term={term} prompt="Type a bet id, username or event" search={search}>
    {(hit) => (
      <Cmdk.Item key={`bet-${hit.id}`} value={`bet-${hit.id}`} onSelect={() => onPick(hit)}>
        <span className="palette-title">
          #{hit.id} {hit.username} <span className="dim">{hit.event} · {hit.market} · {hit.runner}</span>
        </span>
        <span className="palette-group">bet</span>
        <span className="num">{formatMoney(hit.amount)}</span>
      </Cmdk.Item>
    )}
  </ServerHits>
);

/** Events found by team name. */
const EventHits = ({ term, search, onPick }: HitsProps<EventHit>) => (
  <ServerHits term={term} prompt="Type a team name" search={search}>
    {(hit) => (
      <Cmdk.Item key={`event-${hit.eventId}`} value={`event-${hit.eventId}`} onSelect={() => onPick(hit)}>
        <span className="palette-title">
          {hit.label} {hit.inplay && <span className="profit">(Live)</span>}
        </span>
        <span className="palette-group">{hit.sport}</span>
      </Cmdk.Item>
    )}
  </ServerHits>
);

const pendingCount = (total: MarketTotal) => `${total.count} pending ${total.count === 1 ? "bet" : "bets"}`;

/** Events with pending bets (Settle market…, Void bets of event…). */
const PendingEventHits = ({ term, search, onPick }: HitsProps<MarketTotal>) => (
  <ServerHits term={term} empty={term.trim() ? "No results" : "No pending bets"} search={search}>
    {(hit) => (
      <Cmdk.Item key={`event-${hit.eventId}`} value={`event-${hit.eventId}`} onSelect={() => onPick(hit)}>
        <span className="palette-title">
          {hit.event} <span className="dim">{pendingCount(hit)}</span>
        </span>
        <span className="palette-group">event</span>
        <span className="num">{formatMoney(hit.exposure)}</span>
      </Cmdk.Item>
    )}
  </ServerHits>
);

/** One event's markets with pending bets (Settle market…). */
const MarketHits = ({ term, search, onPick }: HitsProps<MarketTotal>) => (
  <ServerHits term={term} empty={term.trim() ? "No results" : "No pending bets on this event"} search={search}>
    {(hit) => (
      <Cmdk.Item key={`market-${hit.marketId}`} value={`market-${hit.marketId}`} onSelect={() => onPick(hit)}>
        <span className="palette-title">
          {hit.market} <span className="dim">{pendingCount(hit)}</span>
        </span>
        <span className="palette-group">{hit.event}</span>
        <span className="num">{formatMoney(hit.exposure)}</span>
      </Cmdk.Item>
    )}
  </ServerHits>
);

/** Users and panels found by the server. */
const AccountHits = ({ term, search, onPick }: HitsProps<AccountHit>) => (
  <ServerHits term={term} prompt="Type a username" search={search}>
    {(hit) => <AccountItem key={`${hit.mode}-${hit.id}`} hit={hit} onPick={onPick} />}
  </ServerHits>
);

/**
 * One answer: a text field, a pick from a server search or list (an event's markets: of the event
 * an earlier step answered), or for a confirmation Yes (`y`) / No (`n`).
 */
function StepInput({
  step,
  answers,
  onAnswer,
  onBack,
}: {
  step: Step;
  answers: Answers;
  onAnswer: (value: string, extra?: Record<string, string>) => void;
  onBack: () => void;
}) {
  const [value, setValue] = useState("");
  if (step.kind === "pick" && step.source === "markets") {
    const eventId = answers[step.event] ?? "";
    return (
      <PickFromSearch
        label="Market"
        placeholder="Filter by market name"
        useSearch={(term) => usePendingMarkets(eventId, term)}
        Hits={MarketHits}
        onPick={(hit) => onAnswer(hit.marketId, { [`${step.name}.label`]: hit.market })}
        onBack={onBack}
      />
    );
  }
  if (step.kind === "pick" && step.source === "pending-events") {
    return (
      <PickFromSearch
        label="Event"
        placeholder="Filter by team name"
        useSearch={usePendingEvents}
        Hits={PendingEventHits}
        onPick={(hit) => onAnswer(hit.eventId, { [`${step.name}.label`]: hit.event })}
        onBack={onBack}
      />
    );
  }
  if (step.kind === "pick" && (step.source === "deposits" || step.source === "withdraws")) {
    const kind = step.source === "deposits" ? "deposit" : "withdraw";
    return (
      <PickFromSearch
        label="Pending request"
        placeholder="Search username or UTR"
        useSearch={useRequestSearch}
        keep={(hit) => hit.kind === kind}
        Hits={RequestHits}
        onPick={(hit) => onAnswer(hit.id, { [`${step.name}.label`]: hit.username })}
        onBack={onBack}
      />
    );
  }
  if (step.kind === "pick" && step.source === "bets") {
    return (
      <PickFromSearch
        label="Pending bet"
        placeholder="Search bet id, username or event"
        useSearch={useBetSearch}
        Hits={BetHits}
        onPick={(hit) =>
          onAnswer(hit.id, {
            [`${step.name}.label`]: `#${hit.id} ${hit.username}`,
            [`${step.name}.eventId`]: hit.eventId,
            [`${step.name}.marketId`]: hit.marketId,
            [`${step.name}.userId`]: hit.userId,
          })
        }
        onBack={onBack}
      />
    );
  }
  if (step.kind === "pick" && step.source === "events") {
    return (
      <PickFromSearch
        label="Event"
        placeholder="Search team name"
        useSearch={useEventSearch}
        Hits={EventHits}
        onPick={(hit) => onAnswer(hit.eventId, { [`${step.name}.label`]: hit.label, [`${step.name}.sport`]: hit.sport })}
        onBack={onBack}
      />
    );
  }
  if (step.kind === "pick") {
    return (
      <PickFromSearch
        label="User or panel"
        placeholder="Search username"
        useSearch={useAccountSearch}
        keep={step.source === "panels" ? (hit) => hit.mode === "partners" : undefined}
        Hits={AccountHits}
        onPick={(hit) => onAnswer(hit.id, { [`${step.name}.label`]: hit.username, [`${step.name}.mode`]: hit.mode })}
        onBack={onBack}
      />
    );
  }
  if (step.kind === "confirm") {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "y") onAnswer("yes");
      else if (event.key === "n") onAnswer("no");
      else if (event.key === "Backspace") onBack();
      else return;
      event.preventDefault();
    };
    return (
      <div className="palette-confirm" onKeyDown={onKeyDown}>
        <button type="button" autoFocus onClick={() => onAnswer("yes")}>
          <kbd>y</kbd> Yes
        </button>
        <button type="button" onClick={() => onAnswer("no")}>
          <kbd>n</kbd> No
        </button>
      </div>
    );
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      onAnswer(value);
    } else if (event.key === "Backspace" && value === "") {
      event.preventDefault();
      onBack();
    }
  };
  return (
    <input
      className="palette-answer"
      autoFocus
      aria-label={step.label}
      type={step.secret ? "password" : "text"}
      autoComplete="off"
      value={value}
      placeholder={step.optional ? "optional — Enter to skip" : "Enter to continue, Backspace to go back"}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}

/**
 * A pick step over one server search or list: its own search field (Backspace on an empty term
 * goes back a step) and the hits it finds, optionally narrowed by `keep`. `useSearch` is called
 * once every render, so it may close over earlier answers (an event's markets).
 */
function PickFromSearch<Hit>({
  label,
  placeholder,
  useSearch,
  keep,
  Hits,
  onPick,
  onBack,
}: {
  label: string;
  placeholder: string;
  useSearch: (term: string) => HitsProps<Hit>["search"];
  keep?: (hit: Hit) => boolean;
  Hits: (props: HitsProps<Hit>) => ReactNode;
  onPick: (hit: Hit) => void;
  onBack: () => void;
}) {
  const [term, setTerm] = useState("");
  const found = useSearch(term);
  const search = keep ? { ...found, hits: found.hits.filter(keep) } : found;
  return (
    <Cmdk label={label} shouldFilter={false} vimBindings={false} loop>
      <Cmdk.Input
        autoFocus
        value={term}
        onValueChange={setTerm}
        placeholder={placeholder}
        aria-label={label}
        onKeyDown={(event) => {
          if (event.key === "Backspace" && term === "") {
            event.preventDefault();
            onBack();
          }
        }}
      />
      <Cmdk.List>
        <Hits term={term} search={search} onPick={onPick} />
      </Cmdk.List>
    </Cmdk>
  );
}
