/**
 * The palette's history (issue 32, docs/ux.md "Palette"): the commands the operator ran from the
 * palette with their answers, newest first, which `↑`/`↓` in the empty palette step through and `.`
 * on a list repeats on its cursor row. Kept in this browser tab (sessionStorage) per operator, at
 * most PALETTE_HISTORY_KEPT entries.
 *
 * Only commands that end with a confirmation are kept, as re-opening one lands there; a command
 * with a secret step (a password, a code: `secret: true`) or a file step is never kept, so no
 * entry can hold a secret and a new command marking its step secret is covered by that one rule.
 */
import { PALETTE_HISTORY_KEPT } from "./constants";
import type { Answers, SteppedCommand, Step } from "../machines/palette.machine";

export type HistoryEntry = { command: string; answers: Answers };

/** Answers that must never be kept: a secret text (a password, a code) or a file's bytes. */
const unkept = (step: Step): boolean => (step.kind === "text" && step.secret === true) || step.kind === "file";

/** The entry a run leaves, or null when the command is not kept (no confirmation, a secret or a file step). */
export function entryOf(command: SteppedCommand, answers: Answers): HistoryEntry | null {
  const steps = command.steps ?? [];
  if (steps.at(-1)?.kind !== "confirm" || steps.some(unkept)) return null;
  const asked = steps.slice(0, -1).map((step) => step.name);
  const kept = Object.entries(answers).filter(([key]) => asked.some((name) => key === name || key.startsWith(`${name}.`)));
  return { command: command.id, answers: Object.fromEntries(kept) };
}

/** `entry` first, the same entry earlier dropped, at most PALETTE_HISTORY_KEPT. */
export function withEntry(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const same = (other: HistoryEntry) => other.command === entry.command && JSON.stringify(other.answers) === JSON.stringify(entry.answers);
  return [entry, ...history.filter((other) => !same(other))].slice(0, PALETTE_HISTORY_KEPT);
}

/**
 * The history position after `↑` (older) or `↓` (newer) from `index`: -1 is the empty palette
 * (no entry shown); `↑` stops at the oldest entry, `↓` from the newest returns to -1.
 */
export function stepHistory(index: number, key: "older" | "newer", length: number): number {
  if (key === "older") return Math.min(index + 1, length - 1);
  return Math.max(index - 1, -1);
}

/** `Deposit… · user0042 · 500 · "bonus"`: the title, then each answer in step order (a pick by its label, text quoted unless a number). */
export function describeEntry(command: SteppedCommand, answers: Answers): string {
  const shown = (command.steps ?? []).flatMap((step) => {
    const value = answers[step.name];
    if (step.kind === "confirm" || value === undefined || value === "") return [];
    if (step.kind === "pick") return [answers[`${step.name}.label`] ?? value];
    return [/^-?\d+(\.\d+)?$/.test(value) ? value : JSON.stringify(value)];
  });
  return [command.title, ...shown].join(" · ");
}

/**
 * A list row as a pick step's answer: `answers` under the step's name (`user`, `user.label`), for
 * pick steps choosing from one of `sources` (an account row answers `accounts`; a panel's `panels` too).
 */
export type RowPick = { sources: readonly string[]; answers: Answers };

/** The newest entry whose command picks what the row answers (every step the row names), if any. */
export function lastTaking<C extends SteppedCommand>(history: readonly HistoryEntry[], commands: readonly C[], row: RowPick): { entry: HistoryEntry; command: C } | null {
  const names = Object.keys(row.answers).filter((key) => !key.includes("."));
  const takes = (command: C) =>
    names.every((name) => command.steps?.some((step) => step.name === name && step.kind === "pick" && row.sources.includes(step.source)));
  for (const entry of history) {
    const command = commands.find((one) => one.id === entry.command);
    if (command && takes(command)) return { entry, command };
  }
  return null;
}

const storageKey = (operator: string) => `betdesk.palette-history.${operator}`;

/** The operator's history in this tab, newest first. */
export function historyOf(operator: string): HistoryEntry[] {
  if (typeof sessionStorage === "undefined") return [];
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(storageKey(operator)) ?? "[]");
    return Array.isArray(stored) ? (stored as HistoryEntry[]) : [];
  } catch {
    return [];
  }
}

/** Keeps a run of `command` (if it is kept at all) as the operator's newest entry in this tab. */
export function noteRun(operator: string, command: SteppedCommand, answers: Answers): void {
  const entry = entryOf(command, answers);
  if (!entry || typeof sessionStorage === "undefined") return;
  sessionStorage.setItem(storageKey(operator), JSON.stringify(withEntry(historyOf(operator), entry)));
}
