/**
 * The platform's CSV downloads (bet history, users, partners): a header row, Windows line ends,
 * and every text cell through the shared guard (protocol/csv.ts).
 */
import { stringify, type Stringifier } from "csv-stringify";
import { csvText } from "../protocol/csv.js";

/** A CSV writer of `columns`: write rows of text and numbers, pipe it to the reply. */
export function csvStream(columns: string[]): Stringifier {
  return stringify({ header: true, columns, record_delimiter: "windows", cast: { string: csvText } });
}
