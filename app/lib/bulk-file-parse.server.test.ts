import { describe, expect, it } from "vitest";
import { FILE_ROW_LIMIT } from "./bulk-file";
import { parseBulkFile } from "./bulk-file-parse.server";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseBulkFile on hostile files (issue 34)", () => {
  it("reads quoted cells holding separators, quotes and line breaks, after a BOM", () => {
    const parsed = parseBulkFile(bytes('\uFEFFusername,amount,remark\r\nbob,10,"cash, back"\r\n"ann",5,"said ""hi""\nthen"\r\n'));
    expect(parsed).toEqual({
      by: "username",
      rows: [
        { line: 2, account: "bob", amount: "10", remark: "cash, back" },
        { line: 4, account: "ann", amount: "5", remark: 'said "hi"\nthen' },
      ],
    });
  });

  it("takes `;` as the separator when the header uses it, so a decimal comma stays in its cell", () => {
    const parsed = parseBulkFile(bytes("Username;Amount;Remark\nbob;10,50;weekly, cashback\n"));
    expect(parsed).toEqual({ by: "username", rows: [{ line: 2, account: "bob", amount: "10,50", remark: "weekly, cashback" }] });
  });

  it("reads CRLF, LF and CR line ends mixed in one file, skipping blank lines", () => {
    const parsed = parseBulkFile(bytes("id,amount\r\na1,1\nb2,2\r\rc3,3\n\n"));
    expect(parsed).toMatchObject({ by: "id", rows: [{ account: "a1" }, { account: "b2" }, { account: "c3" }] });
  });

  it("keeps formula-like cells as text, never evaluated", () => {
    const parsed = parseBulkFile(bytes('username,amount,remark\n=cmd|"/c calc"!A1,+10,@SUM(A1)\n-bob,-5,=1+1\n'));
    expect(parsed).toEqual({
      by: "username",
      rows: [
        { line: 2, account: '=cmd|"/c calc"!A1', amount: "+10", remark: "@SUM(A1)" },
        { line: 3, account: "-bob", amount: "-5", remark: "=1+1" },
      ],
    });
  });

  it(`accepts ${FILE_ROW_LIMIT} lines and refuses ${FILE_ROW_LIMIT + 1} whole, saying so`, () => {
    const file = (count: number) => bytes(["username,amount", ...Array.from({ length: count }, (_, index) => `user${index},1`)].join("\n"));
    expect(parseBulkFile(file(FILE_ROW_LIMIT))).toMatchObject({ rows: { length: FILE_ROW_LIMIT } });
    expect(parseBulkFile(file(FILE_ROW_LIMIT + 1))).toEqual({ refused: expect.stringContaining("more than 5,000 lines") });
  });

  it("refuses a binary file (a PNG, bytes that are not UTF-8, a NUL in text)", () => {
    expect(parseBulkFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toEqual({ refused: expect.stringContaining("not text") });
    expect(parseBulkFile(new Uint8Array([0x75, 0x73, 0xff, 0xfe, 0x0a]))).toEqual({ refused: expect.stringContaining("not text") });
    expect(parseBulkFile(bytes("username,amount\nbob\u0000,1\n"))).toEqual({ refused: expect.stringContaining("not text") });
  });

  it("refuses an unclosed quote and a header with no account column, naming the problem", () => {
    expect(parseBulkFile(bytes('username,amount\nbob,"10\n'))).toEqual({ refused: expect.stringMatching(/^The file is not valid CSV: Quote Not Closed/) });
    expect(parseBulkFile(bytes("name,amount\nbob,10\n"))).toEqual({ refused: "The header line names no username or id column" });
    expect(parseBulkFile(bytes("\n\n"))).toEqual({ refused: "The file is empty" });
  });
});
