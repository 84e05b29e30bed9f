/**
 * The registry of actions: every command of every desk, global or of a screen scope. Screens,
 * keys, the palette and `?` help all read these same entries; a new desk adds its file here.
 */
import { lackOf, type Lacking } from "../lib/capabilities";
import { mayUse, type ScreenScope } from "../lib/screens";
import { ACCOUNT_COMMANDS, ACCOUNT_PICK_SOURCES } from "./accounts";
import { APPROVAL_SCREEN_COMMANDS } from "./approvals";
import { AUDIT_COMMANDS, AUDIT_PICK_SOURCES, AUDIT_SCREEN_COMMANDS } from "./audit";
import { BET_PALETTE_COMMANDS, BET_PICK_SOURCES, BET_SCREEN_COMMANDS } from "./bets";
import { BULK_FILE_COMMANDS, BULK_FILE_PICK_SOURCES } from "./bulk-file";
import { HOME_SCREEN_COMMANDS } from "./home";
import { JOB_SCREEN_COMMANDS } from "./jobs";
import { LIST_COMMANDS, LIST_PALETTE_COMMANDS } from "./list";
import { MARKET_PALETTE_COMMANDS, MARKET_PICK_SOURCES, MARKET_SCREEN_COMMANDS } from "./markets";
import { REPORT_PALETTE_COMMANDS, REPORT_SCREEN_COMMANDS } from "./reports";
import { REQUEST_PALETTE_COMMANDS, REQUEST_PICK_SOURCES, REQUEST_SCREEN_COMMANDS } from "./requests";
import { SESSION_SCREEN_COMMANDS } from "./sessions";
import { SECURITY_COMMANDS } from "./security";
import { SETTINGS_COMMANDS } from "./settings";
import { SETTLEMENT_PALETTE_COMMANDS, SETTLEMENT_SCREEN_COMMANDS } from "./settlement";
import { STAFF_COMMANDS } from "./staff";
import { GO_TO_COMMANDS, SHELL_COMMANDS } from "./shell";
import type { Command, OfferedCommand, Operator, PickSources, ScreenCommand, ViewSelection } from "./types";

export const COMMANDS: readonly Command[] = [
  ...GO_TO_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...BULK_FILE_COMMANDS,
  ...REQUEST_PALETTE_COMMANDS,
  ...BET_PALETTE_COMMANDS,
  ...SETTLEMENT_PALETTE_COMMANDS,
  ...MARKET_PALETTE_COMMANDS,
  ...SETTINGS_COMMANDS,
  ...STAFF_COMMANDS,
  ...SECURITY_COMMANDS,
  ...REPORT_PALETTE_COMMANDS,
  ...AUDIT_COMMANDS,
  ...LIST_PALETTE_COMMANDS,
  ...SHELL_COMMANDS,
];

export const SCREEN_COMMANDS = [
  ...LIST_COMMANDS,
  ...REQUEST_SCREEN_COMMANDS,
  ...BET_SCREEN_COMMANDS,
  ...SETTLEMENT_SCREEN_COMMANDS,
  ...MARKET_SCREEN_COMMANDS,
  ...REPORT_SCREEN_COMMANDS,
  ...AUDIT_SCREEN_COMMANDS,
  ...APPROVAL_SCREEN_COMMANDS,
  ...JOB_SCREEN_COMMANDS,
  ...HOME_SCREEN_COMMANDS,
  ...SESSION_SCREEN_COMMANDS,
] as const satisfies readonly ScreenCommand[];

/**
 * Every desk's pick sources by name, as pick steps name them. A search mode's sources are listed
 * in this order (`#`: requests, bets, events).
 */
export const PICK_SOURCES: PickSources = {
  ...ACCOUNT_PICK_SOURCES,
  ...REQUEST_PICK_SOURCES,
  ...BET_PICK_SOURCES,
  ...MARKET_PICK_SOURCES,
  ...AUDIT_PICK_SOURCES,
  ...BULK_FILE_PICK_SOURCES,
};

/** The id of a screen key, as a screen's `useScreenCommands` handlers name it. */
export type ScreenCommandId = (typeof SCREEN_COMMANDS)[number]["id"];

/** Whether this operator may run the command now: its access, and a selection where it needs one. */
export const mayRun = (command: Command, operator: Operator, selection: ViewSelection | null): boolean =>
  (!command.access || mayUse(command.access, operator)) && (!command.needsSelection || (selection?.rows.length ?? 0) > 0);

/**
 * The commands this operator may run (with this selection): the palette's, the keys', the buttons'.
 * One needing an extension the operator's API lacks stays listed, with its `refusal`, so the
 * palette can say why it does not run.
 */
export const commandsFor = (operator: Operator, selection: ViewSelection | null = null, lacking: Lacking = {}): OfferedCommand[] =>
  COMMANDS.filter((command) => mayRun(command, operator, selection)).map((command) => {
    const refusal = lackOf(command, lacking);
    return refusal ? { ...command, refusal } : command;
  });

/** The keys a screen adds to the global ones: the commands of its scopes. */
export const screenCommandsFor = (scopes: readonly ScreenScope[] = []): ScreenCommand[] =>
  SCREEN_COMMANDS.filter((command) => scopes.includes(command.scope));

export function commandById(id: string): Command {
  const command = COMMANDS.find((c) => c.id === id);
  if (!command) throw new Error(`Unknown command ${id}`);
  return command;
}

/**
 * Keys that would clash on a screen with these scopes: two commands on one sequence, or a
 * sequence that is the start of another (`g` alone would swallow `g h`). The registry has none.
 */
export function keyConflicts(scopes: readonly ScreenScope[], commands: readonly (Command | ScreenCommand)[] = [...COMMANDS, ...SCREEN_COMMANDS]): string[] {
  const active = commands.filter((command) => !command.scope || command.scope === "global" || scopes.includes(command.scope));
  const owners = new Map<string, string[]>();
  for (const command of active) for (const sequence of command.keys ?? []) owners.set(sequence, [...(owners.get(sequence) ?? []), command.id]);
  const sequences = [...owners.keys()];
  return [
    ...[...owners].filter(([, ids]) => ids.length > 1).map(([sequence, ids]) => `${sequence}: ${ids.join(", ")}`),
    ...sequences.flatMap((prefix) =>
      sequences.filter((other) => other.startsWith(`${prefix} `)).map((other) => `${prefix} starts ${other}`),
    ),
  ];
}
