import { describe, expect, it } from "vitest";
import { extendSelection, moveCursor, pageButtons, scrollToReveal, visibleRange } from "./table-model";

describe("pagination", () => {
  it("shows every page when there are 7 or fewer", () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageButtons(1, 0)).toEqual([]);
  });

  it("never shows more than 7 buttons, keeping first, last and the current page's neighbours", () => {
    for (let count = 8; count <= 40; count++) {
      for (let page = 1; page <= count; page++) {
        const buttons = pageButtons(page, count);
        expect(buttons.length).toBeLessThanOrEqual(7);
        expect(buttons).toContain(page);
        expect(buttons[0]).toBe(1);
        expect(buttons.at(-1)).toBe(count);
      }
    }
    expect(pageButtons(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageButtons(2, 20)).toEqual([1, 2, 3, 4, 5, null, 20]);
    expect(pageButtons(19, 20)).toEqual([1, null, 16, 17, 18, 19, 20]);
  });
});

describe("cursor", () => {
  it("moves and clamps", () => {
    expect(moveCursor(0, "down", 10, 5)).toBe(1);
    expect(moveCursor(0, "up", 10, 5)).toBe(0);
    expect(moveCursor(9, "down", 10, 5)).toBe(9);
    expect(moveCursor(3, "end", 10, 5)).toBe(9);
    expect(moveCursor(3, "home", 10, 5)).toBe(0);
    expect(moveCursor(3, "pageDown", 10, 5)).toBe(8);
    expect(moveCursor(8, "pageDown", 10, 5)).toBe(9);
    expect(moveCursor(2, "pageUp", 10, 5)).toBe(0);
    expect(moveCursor(0, "down", 0, 5)).toBe(0);
  });
});

describe("virtual window", () => {
  it("renders the rows in view plus overscan", () => {
    expect(visibleRange(0, 230, 23, 5000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(2300, 230, 23, 5000, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleRange(114_000, 230, 23, 5000, 5)).toEqual({ start: 4951, end: 4972 });
    expect(visibleRange(114_770, 230, 23, 5000, 5)).toEqual({ start: 4985, end: 5000 });
  });

  it("scrolls just enough to reveal the cursor row", () => {
    expect(scrollToReveal(5, 0, 230, 23)).toBeNull();
    expect(scrollToReveal(10, 0, 230, 23)).toBe(23);
    expect(scrollToReveal(2, 100, 230, 23)).toBe(46);
  });
});

describe("selection", () => {
  it("adds the span between anchor and cursor in either direction", () => {
    const keys = ["a", "b", "c", "d"];
    expect([...extendSelection(new Set(["a"]), keys, 1, 3)].sort()).toEqual(["a", "b", "c", "d"]);
    expect([...extendSelection(new Set(), keys, 2, 0)].sort()).toEqual(["a", "b", "c"]);
  });
});
