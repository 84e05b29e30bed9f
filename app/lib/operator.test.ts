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

describe("dates", () => {
  it("shows DD/MM/YY hh:mm a in the platform's zone, with seconds on request", async () => {
    const { formatDateTime } = await import("./format");
    expect(formatDateTime("2026-11-21T13:05:09Z")).toBe("21/11/26 06:35 pm");
    expect(formatDateTime("2026-11-21T13:05:09Z", true)).toBe("21/11/26 06:35:09 pm");
    expect(formatDateTime("2026-01-02T20:00:00Z")).toBe("03/01/26 01:30 am");
    expect(formatDateTime("2026-01-02T18:40:00Z")).toBe("03/01/26 12:10 am");
    expect(formatDateTime("2026-01-02T06:40:00Z")).toBe("02/01/26 12:10 pm");
  });
});
