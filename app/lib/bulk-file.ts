/**
 * Bulk from file (issue 34): a spreadsheet of accounts becomes one stored bulk job. The commands
 * a file may carry, what the server's preview answers line by line, and the job's items built
 * from its good lines (the same forms the users desk's bulk commands post; app/lib/account-jobs.ts).
 * docs/product-notes.md "Bulk from file" has the file's columns and the choices.
 */
import { z } from "zod";
import type { AccountItemPayload, AccountJobKind } from "./account-jobs";
import { ACCOUNT_MODES, isPartnerField, type AccountMode } from "./account-list";

/** Lines a file may hold beyond its header; one more and the whole file is refused. */
export const FILE_ROW_LIMIT = 5000;

/** What a file can ask, each the users desk's own bulk action (a deposit's form, a switch's). */
export const FILE_COMMANDS = {
  deposit: { title: "Deposit", kind: "deposit" },
  withdraw: { title: "Withdraw", kind: "withdraw" },
  "lock-login": { title: "Lock login", kind: "switch", switch: "login", on: false },
  "unlock-login": { title: "Unlock login", kind: "switch", switch: "login", on: true },
  "lock-bet": { title: "Lock betting", kind: "switch", switch: "bet", on: false },
  "unlock-bet": { title: "Unlock betting", kind: "switch", switch: "bet", on: true },
} as const satisfies Record<string, { title: string; kind: AccountJobKind; switch?: "login" | "bet"; on?: boolean }>;
export type FileCommand = keyof typeof FILE_COMMANDS;
export const FILE_COMMAND_NAMES = Object.keys(FILE_COMMANDS) as FileCommand[];

export const movesMoney = (command: FileCommand): boolean => FILE_COMMANDS[command].kind !== "switch";

/**
 * One line of the file as the preview read it: what it named, the account that name resolved to
 * (with its balance then) and, for money, the amount and remark as the desk's schema read them;
 * `problem` says why the line is left out of the job.
 */
export type FileLine = {
  line: number;
  named: string;
  account?: { id: string; username: string; balance: number };
  amount?: number;
  remark?: string;
  problem?: string;
};

/** What `POST /resources/bulk-file/preview` answers; `seal` binds the lines to this operator, command and desk. */
export type FilePreview = {
  command: FileCommand;
  desk: AccountMode;
  lines: FileLine[];
  /** The good lines' amounts, summed to the cent. */
  total: number;
  seal: string;
};

export type Totals = { rows: number; good: number; problems: number; total: number };
export const totalsOf = (preview: Pick<FilePreview, "lines" | "total">): Totals => {
  const good = preview.lines.filter((line) => !line.problem).length;
  return { rows: preview.lines.length, good, problems: preview.lines.length - good, total: preview.total };
};

/** A job item's form for a good line (its requestId fixed now): the exact form the desk's action reads. */
export function fileItemForm(command: FileCommand, desk: AccountMode, line: FileLine, requestId: string): AccountItemPayload {
  const spec = FILE_COMMANDS[command];
  const account = { user: line.account!.id, username: line.account!.username, isPartner: isPartnerField(desk) };
  const form =
    spec.kind === "switch"
      ? { intent: "switch", ...account, switch: spec.switch, on: String(spec.on) }
      : { intent: spec.kind, ...account, amount: String(line.amount), remark: line.remark ?? "", requestId };
  return { path: `/${desk}`, form };
}

const fileLineSchema = z.object({
  line: z.number().int(),
  named: z.string(),
  account: z.object({ id: z.string(), username: z.string(), balance: z.number() }).optional(),
  amount: z.number().optional(),
  remark: z.string().optional(),
  problem: z.string().optional(),
});
/** A job's file as the browser sends it back with the job: the preview's lines and seal. */
export const jobFileSchema = z.object({
  command: z.enum(FILE_COMMAND_NAMES as [FileCommand, ...FileCommand[]]),
  desk: z.enum(ACCOUNT_MODES),
  lines: z.array(fileLineSchema).max(FILE_ROW_LIMIT),
  seal: z.string(),
});
export type JobFile = z.infer<typeof jobFileSchema>;
