/**
 * The command palette (cmdk), a shell that knows no desk. Filtering and ranking are ours
 * (`shouldFilter={false}`; app/commands/rank.ts, each match class ordered by the operator's own
 * frecency, app/lib/palette-memory.ts), and vim bindings are off so Ctrl+K is never eaten. Plain text finds
 * commands and the records the pick sources recall (users and panels seen this session); `>`
 * restricts to commands, and each search mode a source declares (`@`, `#`) searches the sources
 * that declare it, opening the record's screen. A command with steps asks for its arguments one
 * at a time (palette.machine.ts), less those the showing screen already answers (an event's
 * screen, its event); a pick step asks its source, which may read an earlier answer (an event's
 * markets). Backspace on an empty answer goes back a step, Esc closes. `↑`/`↓` in the empty input
 * step through the operator's history (app/lib/palette-history.ts); Enter re-opens an entry at its
 * confirmation.
 */
import { useActorRef, useSelector } from "@xstate/react";
import { useNavigate } from "@remix-run/react";
import { Command as Cmdk } from "cmdk";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { fromPromise } from "xstate";
import { Keys } from "./Keys";
import { Overlay } from "./Overlay";
import { useActiveDescendant } from "./use-active-descendant";
import { announce } from "../../lib/feedback";
import { formatMoney } from "../../lib/format";
import { describeEntry, historyOf, noteRun, stepHistory, type HistoryEntry } from "../../lib/palette-history";
import { deferKey, HOLD, holdKeys, releaseKeys } from "../../lib/key-buffer";
import { noteChoice, usePaletteBoosts } from "../../lib/palette-memory";
import { currentStep, paletteMachine, type Answers, type PickStep, type Step } from "../../machines/palette.machine";
import { createIncrementalRanker, prepare } from "../../commands/rank";
import type { Command, CommandContext, Found, HitRow, OfferedCommand, PickSource, PickSources } from "../../commands/types";

/** About the rows the palette shows at once, and some to scroll: rendering more costs keystrokes. */
const RESULT_LIMIT = 30;

/** A command a button started with what it knows, or `.` re-opened at its confirmation (`reopen`). */
export type PaletteStart = { command: Command; answers: Answers; reopen?: boolean };

type PaletteProps = {
  /** A command with a `refusal` (an extension the operator's API lacks) shows disabled, saying why. */
  commands: readonly OfferedCommand[];
  /** What pick steps and the search modes (`@`, `#`) find: the registry's `PICK_SOURCES`. */
  sources: PickSources;
  context: CommandContext;
  /** A command a button started, with the answers it already knows; the palette asks the rest. */
  start?: PaletteStart | null;
  /** Called once the chosen command has run (or the operator pressed Esc). */
  onClose: () => void;
};

export function Palette({ commands, sources, context, start, onClose }: PaletteProps) {
  const latest = useRef({ commands, context });
  latest.current = { commands, context };
  const actor = useActorRef(
    paletteMachine.provide({
      actors: {
        runCommand: fromPromise(async ({ input }) => {
          const command = start?.command ?? latest.current.commands.find((c) => c.id === input.command.id)!;
          const outcome = await command.run(latest.current.context, input.answers, input.requestId);
          if (outcome) announce(outcome);
          if (outcome && !outcome.ok) throw new Error(outcome.message);
          noteRun(latest.current.context.operator.username, command, input.answers);
        }),
      },
    }),
  );
  useEffect(() => {
    if (!start) return;
    const answers = { ...screenAnswers(start.command, latest.current.context), ...start.answers };
    actor.send({ type: start.reopen ? "palette.reopen" : "palette.choose", command: start.command, answers });
  }, [actor, start]);
  // Its field is focused now (autoFocus, in this commit): the keys typed while its code loaded follow.
  useLayoutEffect(() => releaseKeys(HOLD.palette), []);
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
          sources={sources}
          error={error}
          operator={context.operator.username}
          onChoose={(chosen) => {
            noteChoice(context.operator.username, chosen.id);
            actor.send({ type: "palette.choose", command: chosen, answers: screenAnswers(chosen, context) });
          }}
          onReopen={(chosen, answers) => actor.send({ type: "palette.reopen", command: chosen, answers })}
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
              sources={sources}
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

/** A search mode of the command list: a prefix and the sources that declare it, in table order. */
type SearchMode = { prefix: string; sources: Array<{ id: string; source: PickSource<unknown> }> };

function searchModes(sources: PickSources): SearchMode[] {
  const modes = new Map<string, SearchMode>();
  for (const [id, source] of Object.entries(sources)) {
    if (!source.mode) continue;
    const mode = modes.get(source.mode.prefix) ?? { prefix: source.mode.prefix, sources: [] };
    mode.sources.push({ id, source });
    modes.set(mode.prefix, mode);
  }
  return [...modes.values()];
}

/** `# requests, bets and events`: a mode's part of the input's hint. */
function modeHint({ prefix, sources }: SearchMode): string {
  const nouns = sources.map(({ source }) => source.mode!.noun);
  return `${prefix} ${nouns.length > 1 ? `${nouns.slice(0, -1).join(", ")} and ${nouns.at(-1)}` : nouns[0]}`;
}

/** A search mode asks no step, so a source reads no earlier answer. */
const NO_EARLIER = () => "";

function CommandList({
  commands,
  sources,
  operator,
  error,
  onChoose,
  onReopen,
  onLeave,
}: {
  commands: readonly OfferedCommand[];
  sources: PickSources;
  /** Whose frecency orders the commands within each match class. */
  operator: string;
  error: string | null;
  onChoose: (command: Command) => void;
  /** A history entry chosen: its command at its confirmation, with its answers. */
  onReopen: (command: Command, answers: Answers) => void;
  /** Called after a search mode opened a record, so the palette closes. */
  onLeave: () => void;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  // The operator's history as this palette opened, less what they may not run now; -1 shows none.
  const history = useMemo(() => historyOf(operator).flatMap((entry) => offeredEntry(entry, commands)), [operator, commands]);
  const [historyAt, setHistoryAt] = useState(-1);
  const shown = history[historyAt];
  const onHistoryKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (query !== "") return;
    if (event.key === "Enter" && shown) onReopen(shown.command, shown.entry.answers);
    else if (event.key === "ArrowUp" && history.length > 0) setHistoryAt(stepHistory(historyAt, "older", history.length));
    else if (event.key === "ArrowDown" && shown) setHistoryAt(stepHistory(historyAt, "newer", history.length));
    else return;
    // cmdk leaves a key whose default is prevented alone (its list cursor, its Enter).
    event.preventDefault();
  };
  const modes = useMemo(() => searchModes(sources), [sources]);
  const mode = modes.find((each) => query.startsWith(each.prefix));
  const commandsOnly = !mode && query.startsWith(">");
  const term = mode ? query.slice(mode.prefix.length) : commandsOnly ? query.slice(1) : query;
  // Searches are hooks, so every mode's run on every render: idle (no term) but the one typed.
  const found = modes.map((each) =>
    each.sources.map(({ id, source }) => ({ id, source, found: source.useFound(each === mode ? term : "", NO_EARLIER) })),
  );
  const recalling = useMemo(() => Object.entries(sources).filter(([, source]) => source.recall && source.mode), [sources]);
  // Each store's version says when its hits changed (a fixed list, so the hooks keep their order).
  const recalled = recalling.map(([, source]) => useSyncExternalStore(source.recall!.subscribe, source.recall!.version, () => 0)).join();
  const boosts = usePaletteBoosts(operator);
  const commandEntries = useMemo(() => prepare(commands.map((command) => commandEntry(command, boosts.boostOf(command.id)))), [commands, boosts.version]);
  const rankCommands = useMemo(() => createIncrementalRanker(commandEntries, RESULT_LIMIT), [commandEntries]);
  const rankAll = useMemo(
    () =>
      createIncrementalRanker(
        [...commandEntries, ...prepare(recalling.flatMap(([id, source]) => source.recall!.hits().map((hit) => hitEntry(id, source, hit))))],
        RESULT_LIMIT,
      ),
    [commandEntries, recalling, recalled],
  );
  const results = useMemo(() => (mode ? [] : (commandsOnly ? rankCommands : rankAll)(term)), [mode, commandsOnly, rankCommands, rankAll, term]);
  const message = error ?? found.flat().find((list) => list.found.message)?.found.message;
  const open = (source: PickSource<unknown>, hit: unknown) => {
    holdKeys(HOLD.opening);
    onLeave();
    navigate(source.mode!.address(hit));
  };
  const activeDescendant = useActiveDescendant();
  return (
    <Cmdk ref={activeDescendant} label="Command palette" shouldFilter={false} vimBindings={false} loop>
      <Cmdk.Input
        autoFocus
        value={query}
        onValueChange={(typed) => {
          setQuery(typed);
          setHistoryAt(-1);
        }}
        onKeyDown={onHistoryKey}
        placeholder={["Type a command…", "> commands", ...modes.map(modeHint)].join("   ")}
        aria-label="Command"
      />
      {message && (
        <p className="palette-error" role="alert">
          {message}
        </p>
      )}
      <Cmdk.List>
        {shown ? (
          <Cmdk.Item value={`history-${historyAt}`} onSelect={() => onReopen(shown.command, shown.entry.answers)}>
            <span className="palette-title">{describeEntry(shown.command, shown.entry.answers)}</span>
            <span className="palette-group">
              history {historyAt + 1}/{history.length}
            </span>
          </Cmdk.Item>
        ) : mode ? (
          <FoundItems term={term} idle={mode.sources[0]!.source.idle} lists={found[modes.indexOf(mode)]!} onPick={open} />
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
                <HitItem key={entry.value} value={entry.value} row={entry.row} onSelect={() => open(entry.source, entry.hit)} />
              ),
            )}
          </>
        )}
      </Cmdk.List>
    </Cmdk>
  );
}

/** A history entry with its command, if the operator may run that command now. */
function offeredEntry(entry: HistoryEntry, commands: readonly OfferedCommand[]): Array<{ entry: HistoryEntry; command: OfferedCommand }> {
  const command = commands.find((one) => one.id === entry.command && !one.refusal);
  return command ? [{ entry, command }] : [];
}

type Entry =
  | { kind: "command"; title: string; keywords?: readonly string[]; boost: number; command: OfferedCommand }
  | { kind: "hit"; title: string; keywords: readonly string[]; value: string; row: HitRow; source: PickSource<unknown>; hit: unknown };

const commandEntry = (command: OfferedCommand, boost: number): Entry => ({ kind: "command", title: command.title, keywords: command.keywords, boost, command });
/** A recalled hit ranks by its title and its group (`user`, `panel`). */
function hitEntry(id: string, source: PickSource<unknown>, hit: unknown): Entry {
  const row = source.row(hit);
  return { kind: "hit", title: row.title, keywords: [row.group], value: `${id}:${row.key}`, row, source, hit };
}

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

/** A found record's row: its title, dim detail and highlighted flag, its group, its money. */
function HitItem({ value, row, onSelect }: { value: string; row: HitRow; onSelect: () => void }) {
  return (
    <Cmdk.Item value={value} onSelect={onSelect}>
      <span className="palette-title">
        {row.title}
        {row.detail && <> <span className="dim">{row.detail}</span></>}
        {row.flag && <> <span className="profit">{row.flag}</span></>}
      </span>
      <span className="palette-group">{row.group}</span>
      {row.amount !== undefined && <span className="num">{formatMoney(row.amount)}</span>}
    </Cmdk.Item>
  );
}

/** One source's hits for the term typed now. */
type Listed = { id: string; source: PickSource<unknown>; found: Found<unknown> };

/**
 * What the sources found, as palette items in source order; while there are none, one line says
 * why: searching, nothing found, or (nothing typed) the first source's `idle`.
 */
function FoundItems({
  term,
  idle,
  lists,
  onPick,
}: {
  term: string;
  idle: string;
  lists: readonly Listed[];
  onPick: (source: PickSource<unknown>, hit: unknown) => void;
}) {
  const items = lists.flatMap(({ id, source, found }) => found.hits.map((hit) => ({ row: source.row(hit), id, source, hit })));
  if (items.length === 0) {
    return <p className="palette-hint dim">{lists.some((list) => list.found.busy) ? "Searching…" : term.trim() ? "No results" : idle}</p>;
  }
  return (
    <>
      {items.map(({ row, id, source, hit }) => (
        <HitItem key={`${id}:${row.key}`} value={`${id}:${row.key}`} row={row} onSelect={() => onPick(source, hit)} />
      ))}
    </>
  );
}

/** One answer: a text field, a pick from a source, or for a confirmation Yes (`y`) / No (`n`). */
function StepInput({
  step,
  sources,
  answers,
  onAnswer,
  onBack,
}: {
  step: Step;
  sources: PickSources;
  answers: Answers;
  onAnswer: (value: string, extra?: Answers) => void;
  onBack: () => void;
}) {
  const [value, setValue] = useState("");
  if (step.kind === "pick") {
    const source = sources[step.source];
    if (!source) throw new Error(`No pick source "${step.source}"`);
    return <PickFromSource id={step.source} source={source} step={step} answers={answers} onAnswer={onAnswer} onBack={onBack} />;
  }
  if (step.kind === "file") return <FileStep step={step} onAnswer={onAnswer} onBack={onBack} />;
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
 * A pick step over its source: its own search field (Backspace on an empty term goes back a step)
 * and the hits it finds. The answer keeps the source's extras under the step's name (`user.label`).
 */
function PickFromSource({
  id,
  source,
  step,
  answers,
  onAnswer,
  onBack,
}: {
  id: string;
  source: PickSource<unknown>;
  step: PickStep;
  answers: Answers;
  onAnswer: (value: string, extra: Answers) => void;
  onBack: () => void;
}) {
  const [term, setTerm] = useState("");
  const found = source.useFound(term, (parameter) => answers[step[parameter] ?? ""] ?? "");
  // An Enter typed before the search answered the term waits for it, and the keys after it too.
  useEffect(() => {
    if (!found.busy) releaseKeys(HOLD.pickSearch);
  }, [found.busy]);
  useEffect(() => () => releaseKeys(HOLD.pickSearch), []);
  const pick = (hit: unknown) => {
    const { value, extra = {} } = source.answer(hit);
    onAnswer(value, Object.fromEntries(Object.entries(extra).map(([key, text]) => [`${step.name}.${key}`, text])));
  };
  const activeDescendant = useActiveDescendant();
  return (
    <Cmdk ref={activeDescendant} label={source.label} shouldFilter={false} vimBindings={false} loop>
      <Cmdk.Input
        autoFocus
        value={term}
        onValueChange={setTerm}
        placeholder={source.placeholder}
        aria-label={source.label}
        onKeyDown={(event) => {
          if (event.key === "Backspace" && term === "") {
            event.preventDefault();
            onBack();
          } else if (event.key === "Enter" && found.busy) {
            event.preventDefault();
            event.stopPropagation();
            deferKey(event.nativeEvent, HOLD.pickSearch);
          }
        }}
      />
      <Cmdk.List>
        <FoundItems term={term} idle={source.idle} lists={[{ id, source, found }]} onPick={(_, hit) => pick(hit)} />
      </Cmdk.List>
    </Cmdk>
  );
}

/**
 * A file step (Bulk from file…, issue 34): paste CSV into the text area and press Ctrl+Enter, or
 * Tab to the file field and choose a file, sent as its bytes (the server decides whether they are
 * text). Backspace in an empty text area goes back a step.
 */
function FileStep({ step, onAnswer, onBack }: { step: Extract<Step, { kind: "file" }>; onAnswer: (value: string, extra?: Answers) => void; onBack: () => void }) {
  const [text, setText] = useState("");
  const answerWith = (value: string, encoding: "text" | "base64") => onAnswer(value, { [`${step.name}.encoding`]: encoding });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      answerWith(text, "text");
    } else if (event.key === "Backspace" && text === "") {
      event.preventDefault();
      onBack();
    }
  };
  const onFile = (file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => answerWith(String(reader.result).replace(/^data:[^,]*,/, ""), "base64");
    reader.readAsDataURL(file);
  };
  return (
    <div className="palette-file">
      <textarea
        className="palette-answer"
        autoFocus
        rows={8}
        aria-label={`${step.label}: paste CSV`}
        value={text}
        placeholder="Paste CSV, then Ctrl+Enter — or Tab to choose a file"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <label>
        or a file <input type="file" accept=".csv,text/csv,text/plain" aria-label={`${step.label}: choose a file`} onChange={(event) => onFile(event.target.files?.[0])} />
      </label>
    </div>
  );
}
