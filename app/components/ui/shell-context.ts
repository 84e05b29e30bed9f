/**
 * What the shell gives the screens inside it: run a registry command (buttons), register the
 * screen's key handlers, report the selection for bulk commands, and who is signed in.
 */
import { createContext, useCallback, useContext, useEffect, useRef } from "react";
import type { ScreenCommandId } from "../../commands/registry";
import type { Operator, ScreenHandler, ViewSelection } from "../../commands/types";
import type { CallName } from "../../../protocol/calls";
import type { Lacking } from "../../lib/capabilities";
import type { RowPick } from "../../lib/palette-history";
import type { Answers } from "../../machines/palette.machine";

export type ShellApi = {
  /** Runs a command; answers given here skip their palette steps (a row's button knows its row). */
  runCommand: (id: string, answers?: Answers) => void;
  /**
   * `.` on a list: the operator's last palette command picking what the row answers (`user`),
   * re-opened at its confirmation with the row's answers instead; says so when there is none.
   */
  repeatOnRow: (row: RowPick) => void;
  /** Adds a screen's handlers; returns their removal. */
  registerHandlers: (handlers: () => ScreenHandlers) => () => void;
  reportSelection: (selection: ViewSelection | null) => void;
  operator: Operator;
  /** The extension calls the operator's API showed missing, each with the sentence saying so. */
  lacking: Lacking;
};

export type ScreenHandlers = Partial<Record<ScreenCommandId, ScreenHandler>>;

export const ShellContext = createContext<ShellApi | null>(null);

function useShell(): ShellApi {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("This hook is used outside the shell");
  return shell;
}

/** A button's way to run a registry command: the same code path, confirmation and arguments as its keys and the palette. */
export function useCommand(id: string): (answers?: Answers) => void {
  const { runCommand } = useShell();
  return useCallback((answers?: Answers) => runCommand(id, answers), [runCommand, id]);
}

/** A list's way to repeat the last row command on its cursor row (`.`). */
export const useRepeatOnRow = () => useShell().repeatOnRow;

/**
 * The showing screen answers its scopes' keys (app/commands/<desk>.ts) with these handlers. They
 * are read when a key arrives, so they always see the screen's latest state.
 */
export function useScreenCommands(handlers: ScreenHandlers): void {
  const { registerHandlers } = useShell();
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => registerHandlers(() => latest.current), [registerHandlers]);
}

/** A list screen tells the shell what is selected, so bulk commands can act on it. */
export const useReportSelection = () => useShell().reportSelection;

export const useOperator = (): Operator => useShell().operator;

/** Why a control needing this extension call cannot be used (the operator's API lacks it), or null. */
export const useLack = (extension: CallName): string | null => useShell().lacking[extension] ?? null;
