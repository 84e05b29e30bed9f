import { describe, expect, it } from "vitest";
import { classifyLines, inertCell, lookupsOf, type Resolution } from "./bulk-file.server";
import type { FileRow } from "./bulk-file-parse.server";

const accounts: Record<string, Resolution> = {
  bob: { account: { id: "u1", username: "bob", balance: 100 } },
  ann: { account: { id: "u2", username: "ann", balance: 5 } },
  panel7: "other desk",
};
const resolve = (named: string): Resolution => accounts[named.toLowerCase()] ?? "unknown";
const row = (line: number, account: string, amount = "10", remark = ""): FileRow => ({ line, account, amount, remark });
const classify = (command: "deposit" | "withdraw" | "lock-login", rows: FileRow[], partner = false) =>
  classifyLines({ command, desk: "users", by: "username", rows, partner }, resolve);

describe("classifyLines: each problem of a file's line (issue 34)", () => {
  it("names an unknown account, a panel where a user was meant, and a line naming none", () => {
    const { lines } = classify("deposit", [row(2, "nobody"), row(3, "panel7"), row(4, "")]);
    expect(lines.map((line) => line.problem)).toEqual(["unknown user", "is a panel, not a user", "no username"]);
  });

  it("tells a partner an account outside their tree without saying whether it exists", () => {
    expect(classify("deposit", [row(2, "nobody")], true).lines[0]!.problem).toBe("not in your tree (or unknown user)");
  });

  it("refuses a bad amount by the deposit form's own rules, formula-like ones included", () => {
    const { lines } = classify("deposit", [row(2, "bob", "0"), row(3, "bob", "1.234"), row(4, "bob", "=10"), row(5, "bob", "+10"), row(6, "bob", "")]);
    expect(lines.map((line) => line.problem)).toEqual([
      "Amount must be above 0",
      "Amount must be a number with at most 2 decimals",
      "Amount must be a number with at most 2 decimals",
      "Amount must be a number with at most 2 decimals",
      "Amount is required",
    ]);
  });

  it("refuses a remark the API would refuse (too long)", () => {
    expect(classify("deposit", [row(2, "bob", "10", "x".repeat(500))]).lines[0]!.problem).toMatch(/^Remark must be at most/);
  });

  it("refuses a withdrawal above the account's balance", () => {
    expect(classify("withdraw", [row(2, "ann", "6")]).lines[0]!.problem).toBe("above the balance (5.00)");
  });

  it("keeps the first line of an account and names each repeat", () => {
    const { lines, total } = classify("deposit", [row(2, "bob", "10.10"), row(3, "ann", "2.20"), row(4, "BOB", "1")]);
    expect(lines.map((line) => line.problem)).toEqual([undefined, undefined, "repeats the account of line 2"]);
    expect(total).toBe(12.3);
  });

  it("resolves the good lines' accounts, amounts and remarks; a switch needs no amount", () => {
    expect(classify("deposit", [row(2, "bob", "10", " weekly ")]).lines[0]).toEqual({
      line: 2,
      named: "bob",
      account: { id: "u1", username: "bob", balance: 100 },
      amount: 10,
      remark: "weekly",
    });
    expect(classify("lock-login", [row(2, "bob", "")]).lines[0]).toEqual({ line: 2, named: "bob", account: { id: "u1", username: "bob", balance: 100 } });
  });
});

describe("inertCell", () => {
  it("prefixes a cell a spreadsheet would run as a formula", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "bob"].map(inertCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\t=1", "bob"]);
  });
});

describe("lookupsOf: the accounts one lookup names", () => {
  it("names at most 200 a lookup, every name once and in order", () => {
    const names = Array.from({ length: 500 }, (_, n) => `user${n}`);
    const lookups = lookupsOf(names);
    expect(lookups.map((lookup) => lookup.length)).toEqual([200, 200, 100]);
    expect(lookups.flat()).toEqual(names);
  });

  it("keeps each lookup's encoded list within 7,000 characters for the longest names the lookup takes", () => {
    const names = Array.from({ length: 200 }, (_, n) => `${n}`.padEnd(64, "é"));
    const lookups = lookupsOf(names);
    expect(lookups.length).toBeGreaterThan(1);
    for (const lookup of lookups) expect(encodeURIComponent(lookup.join(",")).length).toBeLessThanOrEqual(7_000);
    expect(lookups.flat()).toEqual(names);
  });
});
