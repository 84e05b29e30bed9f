/** The shape of every action the console offers: one registry feeds buttons, keys and the palette. */
import type { Role } from "../../protocol/wire";
import type { BulkJob } from "../components/BulkRun";
import type { Outcome } from "../lib/feedback";
import type { Answers, Step } from "../machines/palette.machine";

/** What a command may look at to decide whether the operator may run it. */
export type Operator = { username: string; role: Role; flags: Record<string, boolean> };

/** Rows the operator selected in the current view (x, Shift+↓/↑, *), for bulk commands. */
export type ViewSelection = {
  mode: "users" | "partners";
  rows: Array<{ id: string; username: string }>;
};

/** The effects a command can use, supplied by the shell. */
export type CommandContext = {
  operator: Operator;
  selection: ViewSelection | null;
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
};

export type Command = {
  /** Stable id, used by buttons (`useCommand(id)`) and as the test hook `data-command`. */
  id: string;
  /** Palette text. Money-moving or destructive commands end with `…` and confirm. */
  title: string;
  group: "Go to" | "Account" | "Accounts" | "Requests" | "Bulk" | "View";
  /** Extra words the palette matches. */
  keywords?: readonly string[];
  /** Key sequences that run it anywhere outside a text field: `"g h"`, `"?"`, `"mod+k"`. */
  keys?: readonly string[];
  /** Absent means every signed-in operator. Checked again by the platform on every call. */
  permission?: (operator: Operator, selection: ViewSelection | null) => boolean;
  /** Arguments the palette asks for one at a time before running (Raycast style). */
  steps?: readonly Step[];
  /** An Outcome is announced with the spec's toast; a failed one keeps the palette open. */
  run: (context: CommandContext, answers: Answers) => void | Promise<Outcome | void>;
};
