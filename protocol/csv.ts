/**
 * The one rule for a cell of any CSV betdesk writes (the platform's downloads, the console's audit
 * trail): no cell a spreadsheet would run.
 *
 * A spreadsheet takes a cell starting with = + - @ tab or CR for a formula (CSV injection); a
 * leading ' keeps such text text. A number is no formula, and a guarded one is text that SUM
 * skips, so a cell that is a plain decimal number (-10.00, a loss) is written as it is. The
 * cell's form decides, not its JavaScript type: money arrives formatted (toFixed) as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL_NUMBER = /^-?\d+(\.\d+)?$/;

/** `text` as a cell: a formula-like text behind a quote, a number as it is. */
export const csvText = (text: string) => (FORMULA_START.test(text) && !DECIMAL_NUMBER.test(text) ? `'${text}` : text);
