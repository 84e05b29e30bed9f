import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvStream } from "./csv.js";

/** The file `rows` make, parsed back as a spreadsheet would read its cells. */
async function roundTrip(rows: unknown[][]): Promise<string[][]> {
  const csv = csvStream(["Name", "Status", "Profit/Loss"]);
  for (const row of rows) csv.write(row);
  csv.end();
  const text = (await csv.toArray()).join("");
  expect(text.endsWith("\r\n")).toBe(true);
  return parse(text, { record_delimiter: "\r\n" });
}

describe("csvStream", () => {
  it("writes losses as numbers a spreadsheet sums (issue 15: a lost bet's row ended FAIL,'-10.00)", async () => {
    const rows = await roundTrip([
      ["back", "FAIL", "-10.00"],
      ["lay", "SUCCESS", "25.50"],
      ["void", "VOID", -0.5],
      ["zero", "VOID", "0.00"],
    ]);
    expect(rows[0]).toEqual(["Name", "Status", "Profit/Loss"]);
    const figures = rows.slice(1).map((row) => row[2]!);
    expect(figures).toEqual(["-10.00", "25.50", "-0.5", "0.00"]);
    expect(figures.every((cell) => Number.isFinite(Number(cell)))).toBe(true);
    expect(figures.reduce((sum, cell) => sum + Number(cell), 0)).toBeCloseTo(15);
  });

  it("keeps every text a spreadsheet would run as a formula behind a quote", async () => {
    const hostile = ["=HYPERLINK(\"http://evil.example\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTAB", "\rCR", "+5", "-", "-1e5", "- 3"];
    const rows = await roundTrip(hostile.map((text) => [text, "FAIL", "1.00"]));
    expect(rows.slice(1).map((row) => row[0])).toEqual(hostile.map((text) => `'${text}`));
  });

  it("writes plain text, quotes and separators as they are", async () => {
    const rows = await roundTrip([["Alpha v Beta", 'say "hi", then', "12"]]);
    expect(rows[1]).toEqual(["Alpha v Beta", 'say "hi", then', "12"]);
  });
});
