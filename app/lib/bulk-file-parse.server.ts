/**
 * Reads a bulk file (issue 34) with a real CSV parser (csv-parse): quoted cells, a BOM, `;` or `,`
 * between cells (whichever the header line uses more), `\r\n`, `\n` or `\r` between lines, mixed
 * in one file. Cells are text and nothing else: a cell starting `=`, `+`, `-` or `@` is never
 * evaluated (an amount like that is simply not a number). A file that is not UTF-8 text, has no
 * account column, or holds more than FILE_ROW_LIMIT lines is refused whole.
 */
import { parse } from "csv-parse/sync";
import { FILE_ROW_LIMIT } from "./bulk-file";

/** A line of the file by its columns; `line` is its line number in the file (the header is line 1). */
export type FileRow = { line: number; account: string; amount: string; remark: string };
export type ParsedFile = { by: "username" | "id"; rows: FileRow[] };
export type FileRefusal = { refused: string };

/** Bytes that are not text: a NUL or another control character than tab, line feed and carriage return. */
const BINARY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The separator the header line uses more; a comma when it uses neither. */
function separatorOf(text: string): "," | ";" {
  const header = text.slice(0, text.search(/[\r\n]|$/));
  const count = (character: string) => header.split(character).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

const decoder = new TextDecoder("utf-8", { fatal: true });

export function parseBulkFile(bytes: Uint8Array): ParsedFile | FileRefusal {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { refused: "The file is not text (UTF-8 CSV expected): save the spreadsheet as CSV UTF-8" };
  }
  if (BINARY.test(text)) return { refused: "The file is not text (it holds binary bytes): save the spreadsheet as CSV UTF-8" };
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    // `info: true` makes each record `{ record, info }` (the typings do not follow the option).
    records = parse(text, {
      bom: true,
      delimiter: separatorOf(text.replace(/^\uFEFF/, "")),
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
      info: true,
      // The header and one line past the limit: enough to know the file is too long.
      to: FILE_ROW_LIMIT + 2,
    }) as unknown as typeof records;
  } catch (error) {
    return { refused: `The file is not valid CSV: ${(error as Error).message}` };
  }
  const [header, ...lines] = records;
  if (!header) return { refused: "The file is empty" };
  if (lines.length > FILE_ROW_LIMIT) return { refused: `The file has more than ${FILE_ROW_LIMIT.toLocaleString("en-US")} lines: split it into files of at most ${FILE_ROW_LIMIT.toLocaleString("en-US")}; nothing was read` };
  const columns = header.record.map((name) => name.toLowerCase());
  const by = columns.includes("username") ? "username" : columns.includes("id") ? "id" : null;
  if (!by) return { refused: "The header line names no username or id column" };
  const at = (name: string) => columns.indexOf(name);
  const cell = (record: string[], index: number) => (index < 0 ? "" : (record[index] ?? ""));
  return {
    by,
    rows: lines.map(({ record, info }) => ({
      line: info.lines,
      account: cell(record, at(by)),
      amount: cell(record, at("amount")),
      remark: cell(record, at("remark")),
    })),
  };
}
