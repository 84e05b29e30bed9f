/**
 * The shape of every action the console offers: one registry feeds buttons, keys, the palette and
 * the `?` key help. A command is global (palette, keys anywhere) or belongs to a screen scope
 * (keys only on the screens that list that scope in app/lib/screens.ts).
 */
import type { CallName } from "../../protocol/calls";
import type { AccountMode } from "../lib/account-list";
import type { Outcome } from "../lib/feedback";
import type { Operator } from "../lib/operator";
import type { Access, ScreenScope } from "../lib/screens";
import type { BulkJob } from "../machines/bulk.machine";
import type { Answers, Step } from "../machines/palette.machine";

export type { Operator };

/** Rows the operator selected in the current view (x, Shift+↓/↑, *), for bulk commands. */
export type ViewSelection = {
  mode: AccountMode;
  rows: Array<{ id: string; username: string }>;
};

/** The effects a command can use, supplied by the shell. */
export type CommandContext = {
  operator: Operator;
  selection: ViewSelection | null;
  /** The address shown now, so a command can act on the screen's own query (its search). */
  location: { pathname: string; search: string };
  navigate: (to: string) => void;
  toggleSidebar: () => void;
  openPalette: () => void;
  openHelp: () => void;
  /** Mutes or unmutes the spoken alerts for new requests. */
  toggleMute: () => void;
  logout: () => void;
  /** Posts to a route's action, the same one its screen's form posts to, and resolves its outcome. */
  submitAction: (action: string, values: Answers) => Promise<Outcome>;
  /** Saves a file the console serves (a CSV download) without leaving the page. */
  download: (href: string) => void;
  /** Shows a bulk command's confirmation and progress. */
  startBulk: (job: BulkJob) => void;
  /** Runs the showing screen's handler of a screen key (`list.columns`), closing the palette with it; false when it has none. */
  screenKey: (id: string) => boolean;
};

type CommandBase = {
  /** Stable id, used by buttons (`useCommand(id)`) and as the test hook `data-command`. */
  id: string;
  /** Palette and key-help text. Money-moving or destructive commands end with `…` and confirm. */
  title: string;
  group: "Go to" | "Account" | "Accounts" | "Requests" | "Bets" | "Markets" | "Reports" | "Bulk" | "View" | "List" | "Settings" | "Staff" | "Approvals" | "Sessions";
  /** Extra words the palette matches. */
  keywords?: readonly string[];
  /** Key sequences that run it outside a text field or dialog: `"g h"`, `"?"`, `"mod+k"`. */
  keys?: readonly string[];
};

/** A command of the palette; its keys work on every screen. */
export type Command = CommandBase & {
  scope?: "global";
  /**
   * Who may run it (a screen row is an Access: a desk's commands need what its screen needs);
   * absent: every signed-in operator. The palette, keys and buttons read it; the platform checks again.
   */
  access?: Access;
  /**
   * The extension call it needs (protocol/calls.ts): once the operator's API showed it missing, the
   * palette shows the command disabled with the reason, and its keys and buttons do not run it.
   */
  extension?: CallName;
  /** Runs on the rows selected in the current view (bulk commands): offered only with a selection. */
  needsSelection?: boolean;
  /** Arguments the palette asks for one at a time before running (Raycast style). */
  steps?: readonly Step[];
  /**
   * Answers the showing screen already gives (an event's screen, its event): the palette skips
   * their steps, and Backspace from the first step it asks still reaches them.
   */
  screenAnswers?: (location: CommandContext["location"]) => Answers;
  /**
   * An Outcome is announced with the spec's toast; a failed one keeps the palette open. From the
   * palette, `requestId` is the same for every attempt of one run: a money call sends it.
   */
  run: (context: CommandContext, answers: Answers, requestId?: string) => void | Promise<Outcome | void>;
};

/** A command as offered to this operator on this API: `refusal` says why it cannot run now (an extension the API lacks). */
export type OfferedCommand = Command & { refusal?: string };

/**
 * A key of a screen: the screen that is showing runs it (`useScreenCommands`), on its cursor row,
 * its page. A handler answering `false` leaves the key alone (nothing to act on).
 */
export type ScreenCommand = CommandBase & { scope: ScreenScope; keys: readonly string[] };

export type ScreenHandler = () => boolean | void;

/** One record a pick source found, as the palette draws it (the palette knows no desk's records). */
export type HitRow = {
  /** Unique within its source: the palette item's value. */
  key: string;
  title: string;
  /** Dim text after the title (a UTR, a bet's event and market). */
  detail?: string;
  /** Highlighted text after the title (`(Live)`). */
  flag?: string;
  /** The tag on the right (user, deposit, the sport). */
  group: string;
  /** Money, right-aligned. */
  amount?: number;
};

/** What a search or a choice list holds for the term typed now. */
export type Found<Hit> = { hits: readonly Hit[]; message: string | null; busy: boolean };

/**
 * Where a pick step's choices come from, declared by a desk beside its commands and joined in the
 * registry's `PICK_SOURCES`; a step names it (`source: "bets"`). The palette asks, draws and
 * answers through these alone. (Methods, so a table can hold sources of different hits.)
 */
export type PickSource<Hit> = {
  /** The pick field's accessible name. */
  label: string;
  placeholder: string;
  /** Said while nothing is typed and nothing shows: a search's prompt, or a choice list's "none". */
  idle: string;
  /**
   * A hook, called on every render: the hits for `term`. `earlier(parameter)` is the answer of the
   * earlier step the pick step names under `parameter` (an event's markets read `event`).
   */
  useFound(term: string, earlier: (parameter: string) => string): Found<Hit>;
  row(hit: Hit): HitRow;
  /** The step's answer, and what else is kept of the choice under `<step name>.<key>` (its label, its mode). */
  answer(hit: Hit): { value: string; extra?: Answers };
  /**
   * The command list's search mode that finds these too (`@`, `#`; several sources may share one):
   * typed after its prefix, and choosing a hit opens its record's screen.
   */
  mode?: {
    prefix: string;
    /** What it finds, for the palette's hint (`@ users and panels`). */
    noun: string;
    /** The record's address, built from the screens table. */
    address(hit: Hit): string;
  };
  /** Hits seen this session, which plain text finds among the commands (opening `mode.address`). */
  recall?: { hits(): readonly Hit[]; version(): number; subscribe(listener: () => void): () => void };
};

/** Every desk's pick sources by name. A fixed table: the palette calls their searches, hooks, in its order. */
export type PickSources = Readonly<Record<string, PickSource<unknown>>>;
