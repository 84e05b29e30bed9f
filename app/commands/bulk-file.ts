/**
 * `Bulk from file…` (issue 34): choose the command and the desk, paste CSV or choose a file; the
 * server previews every line, and the preview is the bulk run's one confirmation (`y`): its good
 * lines become one stored job, each with its requestId, the users desk's own bulk items.
 */
import { accountBulkJob, type Submit } from "../lib/account-jobs";
import type { AccountMode } from "../lib/account-list";
import { FILE_COMMAND_NAMES, FILE_COMMANDS, fileItemForm, movesMoney, totalsOf, type FileCommand, type FilePreview } from "../lib/bulk-file";
import { MESSAGES } from "../lib/constants";
import { newRequestId } from "../lib/forms/account-actions";
import { formatMoney } from "../lib/format";
import { SCREENS } from "../lib/screens";
import type { BulkJob } from "../machines/bulk.machine";
import { narrowChoices } from "./rank";
import type { Command, PickSource, PickSources } from "./types";

const PREVIEW_ENDPOINT = "/resources/bulk-file/preview";

type Choice = { value: string; title: string };
/** A pick source over a fixed list, narrowed as the operator types. */
function fixedChoices(label: string, choices: readonly Choice[]): PickSource<Choice> {
  const narrow = narrowChoices(choices, (choice) => choice.title);
  return {
    label,
    placeholder: `Choose ${label.toLowerCase()}`,
    idle: "",
    useFound: (term) => ({ hits: narrow(term), message: null, busy: false }),
    row: (choice) => ({ key: choice.value, title: choice.title, group: label.toLowerCase() }),
    answer: (choice) => ({ value: choice.value, extra: { label: choice.title } }),
  };
}

const DESKS: Record<AccountMode, string> = { users: "Users", partners: "Panels" };

export const BULK_FILE_PICK_SOURCES: PickSources = {
  fileCommands: fixedChoices("Command", FILE_COMMAND_NAMES.map((name) => ({ value: name, title: FILE_COMMANDS[name].title }))) as PickSource<unknown>,
  fileDesks: fixedChoices("Accounts", Object.entries(DESKS).map(([value, title]) => ({ value, title }))) as PickSource<unknown>,
};

/** Asks the server to read and classify the file; its refusal (too long, not text) is the step's error. */
async function readPreview(command: string, desk: string, content: string, encoding: string): Promise<FilePreview & { refusal: string | null }> {
  const response = await fetch(PREVIEW_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ command, desk, content, encoding }),
  });
  const answer = (await response.json().catch(() => null)) as { preview?: FilePreview & { refusal: string | null }; message?: string } | null;
  if (!response.ok || !answer?.preview) throw new Error(answer?.message ?? MESSAGES.fallback);
  return answer.preview;
}

/** The bulk run of a previewed file: its lines shown, its good lines the job's items. */
export function fileJob(preview: FilePreview & { refusal: string | null }, submit: Submit): BulkJob {
  const { command, desk, lines } = preview;
  const spec = FILE_COMMANDS[command as FileCommand];
  const money = movesMoney(command);
  const totals = totalsOf(preview);
  const noun = desk === "users" ? "users" : "panels";
  const summary = [
    `${totals.rows} rows`,
    `${totals.good} good`,
    ...(money ? [`sum ${formatMoney(totals.total)}`] : []),
    `${totals.problems} ${totals.problems === 1 ? "problem" : "problems"}${totals.problems > 0 ? " (e: next problem)" : ""}`,
    ...(preview.refusal ? [preview.refusal] : []),
  ].join(" · ");
  const good = lines.filter((line) => !line.problem);
  return accountBulkJob({
    title: `${spec.title} from file`,
    question: `${spec.title} ${money ? `${formatMoney(totals.total)} in total to ` : ""}${totals.good} ${noun}, as previewed (lines with a problem are left out)?`,
    kind: spec.kind,
    items: good.map((line) => {
      const requestId = newRequestId();
      return { key: line.account!.id, label: `line ${line.line} ${line.account!.username}`, requestId, payload: fileItemForm(command, desk, line, requestId) };
    }),
    submit,
    preview: {
      summary,
      columns: ["Line", "Named", "Account", "Id", "Balance", ...(money ? ["Amount", "Remark"] : [])],
      rows: lines.map((line) => ({
        key: String(line.line),
        cells: [
          String(line.line),
          line.named,
          line.account?.username ?? "",
          line.account?.id ?? "",
          line.account ? formatMoney(line.account.balance) : "",
          ...(money ? [line.amount === undefined ? "" : formatMoney(line.amount), line.remark ?? ""] : []),
        ],
        problem: line.problem,
      })),
    },
    file: { command, desk, lines, seal: preview.seal },
  });
}

export const BULK_FILE_COMMANDS: readonly Command[] = [
  {
    id: "accounts.bulk-file",
    title: "Bulk from file…",
    group: "Bulk",
    keywords: ["csv", "spreadsheet", "import", "upload", "paste", "cashback", "deposit", "withdraw", "lock", "unlock"],
    // The users and panels desk's; each line's account is checked against the operator's rights when the job is stored.
    access: SCREENS.users,
    steps: [
      { kind: "pick", name: "command", label: "Command", source: "fileCommands" },
      { kind: "pick", name: "desk", label: "Accounts", source: "fileDesks" },
      { kind: "file", name: "file", label: "CSV file" },
    ],
    run: async ({ startBulk, submitAction }, answers) => {
      const preview = await readPreview(answers.command!, answers.desk!, answers.file!, answers["file.encoding"] ?? "text");
      startBulk(fileJob(preview, submitAction));
    },
  },
];
