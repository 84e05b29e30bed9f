import { describe, expect, it } from "vitest";
import {
  applyLayout,
  chooserLines,
  filtersOf,
  layoutOf,
  layoutOfLines,
  moveLine,
  resized,
  SCREEN_LAYOUT,
  toggleLine,
  VIEW_NAME_MAX,
  VIEW_SCREENS,
  viewChangeSchema,
  viewQueryOf,
  viewSchema,
  withLayout,
} from "./list-view";

const columns = ["id", "username", "balance", "createdAt"].map((id) => ({ id }));
const ids = (list: readonly { id: string }[]) => list.map((column) => column.id);

describe("a view in the address", () => {
  it("tells a view of columns alone from one that changes the data: its filters, in any order, without cols and widths", () => {
    const now = new URLSearchParams("orderBy=balance&search=ab");
    expect(filtersOf(new URLSearchParams("search=ab&cols=username,id&orderBy=balance&widths=id:6"))).toBe(filtersOf(now));
    expect(filtersOf(new URLSearchParams("cols=username,id"))).not.toBe(filtersOf(now));
    expect(filtersOf(new URLSearchParams("cols=username"))).toBe("");
  });

  it("reads cols and widths, and writes them back as read", () => {
    const params = new URLSearchParams("search=ab&orderBy=balance&cols=username,id&widths=username:20");
    const layout = layoutOf(params);
    expect(layout).toEqual({ order: ["username", "id"], widths: { username: 20 } });
    const written = withLayout(new URLSearchParams("search=ab&orderBy=balance"), layout);
    expect(Object.fromEntries(written)).toEqual(Object.fromEntries(params));
    expect(layoutOf(withLayout(new URLSearchParams("search=ab"), layout))).toEqual(layout);
  });

  it("without cols keeps the screen's own columns; a layout back to it leaves no params", () => {
    expect(layoutOf(new URLSearchParams("search=ab"))).toEqual(SCREEN_LAYOUT);
    expect(withLayout(new URLSearchParams("search=ab&cols=id&widths=id:9"), SCREEN_LAYOUT).toString()).toBe("search=ab");
  });

  it("clamps widths and ignores what is not a width", () => {
    expect(layoutOf(new URLSearchParams("widths=id:1,username:999,balance:x,:4,createdAt")).widths).toEqual({ id: 4, username: 80 });
  });

  it("keeps filters, sort and layout in a saved view, not the page or an open row", () => {
    expect(viewQueryOf(new URLSearchParams("search=ab&page=3&open=12&logs=1&new=1&orderBy=balance&cols=id"))).toBe(
      "search=ab&orderBy=balance&cols=id",
    );
  });
});

describe("applying a layout", () => {
  it("shows the named columns in order and hides the rest", () => {
    expect(ids(applyLayout(columns, { order: ["balance", "id"], widths: {} }).shown)).toEqual(["balance", "id"]);
    expect(ids(applyLayout(columns, SCREEN_LAYOUT).shown)).toEqual(ids(columns));
  });

  it("leaves out a column the API no longer sends, and names it", () => {
    const { shown, unknown } = applyLayout(columns, layoutOf(new URLSearchParams("cols=id,gone,balance&widths=gone:10,other:8")));
    expect(ids(shown)).toEqual(["id", "balance"]);
    expect(unknown).toEqual(["gone", "other"]);
  });
});

describe("the column chooser", () => {
  const layout = { order: ["balance", "id"], widths: { id: 12, gone: 6 } };

  it("lists the shown columns in order, then the hidden ones", () => {
    expect(chooserLines(columns, layout)).toEqual([
      { id: "balance", shown: true },
      { id: "id", shown: true },
      { id: "username", shown: false },
      { id: "createdAt", shown: false },
    ]);
  });

  it("toggles, moves, and gives back the layout it shows", () => {
    let lines = chooserLines(columns, layout);
    lines = toggleLine(lines, 2);
    lines = moveLine(lines, 2, -1);
    lines = moveLine(lines, 0, -1);
    expect(layoutOfLines(lines, layout.widths)).toEqual({ order: ["balance", "username", "id"], widths: { id: 12 } });
  });

  it("never hides the last column shown", () => {
    const lines = chooserLines(columns, { order: ["id"], widths: {} });
    expect(toggleLine(lines, 0)).toEqual(lines);
    expect(
      toggleLine(toggleLine(lines, 1), 0)
        .filter((line) => line.shown)
        .map((line) => line.id),
    ).toEqual(["username"]);
  });

  it("resizes by a step within the bounds", () => {
    expect(resized({}, "id", 10, 1)).toEqual({ id: 12 });
    expect(resized({ id: 80 }, "id", 80, 1)).toEqual({ id: 80 });
    expect(resized({}, "id", 4, -1)).toEqual({ id: 4 });
  });
});

describe("a stored view", () => {
  it("round-trips through JSON", () => {
    const view = { name: "Big balances", query: "orderBy=balance&cols=username%2Cbalance", isDefault: true };
    const stored = viewSchema.parse(JSON.parse(JSON.stringify(view)));
    expect(stored).toEqual(view);
    expect(ids(applyLayout(columns, layoutOf(new URLSearchParams(stored.query))).shown)).toEqual(["username", "balance"]);
  });

  it("refuses a long or empty name, an unknown screen, a missing field", () => {
    const view = { name: "x", query: "", isDefault: false };
    expect(viewChangeSchema.safeParse({ intent: "save", screen: "users", view }).success).toBe(true);
    expect(
      viewChangeSchema.safeParse({ intent: "save", screen: "users", view: { ...view, name: "x".repeat(VIEW_NAME_MAX + 1) } }).success,
    ).toBe(false);
    expect(viewChangeSchema.safeParse({ intent: "save", screen: "users", view: { ...view, name: "  " } }).success).toBe(false);
    expect(viewChangeSchema.safeParse({ intent: "save", screen: "bank-details", view }).success).toBe(false);
    expect(viewChangeSchema.safeParse({ intent: "save", screen: "users", view: { name: "x" } }).success).toBe(false);
    expect(viewChangeSchema.safeParse({ intent: "delete", screen: "users", name: "x" }).success).toBe(true);
  });

  it("names only list screens", () => {
    expect(VIEW_SCREENS).toContain("users");
    expect(VIEW_SCREENS).toContain("deposits");
    expect(VIEW_SCREENS).not.toContain("home");
  });
});
