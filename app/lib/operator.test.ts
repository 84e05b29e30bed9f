import { describe, expect, it } from "vitest";
import { formatBalance } from "./format";
import { parseFlags } from "./operator";
import { documentTitle, pageTitleOf } from "./page";

describe("operator flags", () => {
  it("keeps only flags that are true", () => {
    expect(parseFlags('{"deposits":true,"users":false,"report":"yes"}')).toEqual({ deposits: true });
  });
  it("grants nothing for unreadable permissions", () => {
    expect(parseFlags("not json")).toEqual({});
    expect(parseFlags("[true]")).toEqual({});
    expect(parseFlags("null")).toEqual({});
  });
});

describe("display", () => {
  it("formats balances with 2 decimals", () => {
    expect(formatBalance(100000)).toBe("1,00,000.00");
    expect(formatBalance(-12.5)).toBe("-12.50");
    expect(formatBalance("unlimited")).toBe("unlimited");
  });
  it("titles pages from the deepest handle", () => {
    expect(pageTitleOf([{ handle: { title: "Shell" } }, {}, { handle: { title: "Change Password" } }])).toBe(
      "Change Password",
    );
    expect(pageTitleOf([])).toBe("Home");
    expect(documentTitle("Users")).toBe("Users - Admin");
  });
});
