import { describe, expect, it } from "vitest";
import { columnTrack, extendSelection, moveCursor, pageButtons, scrollToReveal, visibleRange } from "./table-model";

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

describe("column widths", () => {
  it("fit a content column to its widest text, so a time keeps its am/pm", () => {
    const texts = ["23/11/26 10:30:58 am", "01/12/26 09:05:00 pm"];
    expect(columnTrack({ header: "Time", sortable: false, fit: "content", texts })).toBe("calc(20ch + 16px)");
    expect(columnTrack({ header: "Amount", sortable: false, fit: "content", texts: ["1,00,000.00", "5.00"] })).toBe("calc(11ch + 16px)");
  });

  it("give a content column room for its header's longest word (headers wrap) and sort mark", () => {
    expect(columnTrack({ header: "Withdrawal History", sortable: false, fit: "content", texts: ["Withdrawals"] })).toBe("calc(11ch + 16px)");
    expect(columnTrack({ header: "Bet History", sortable: false, fit: "content", texts: ["Bets"] })).toBe("calc(7ch + 16px)");
    expect(columnTrack({ header: "Balance", sortable: true, fit: "content", texts: ["0.00"] })).toBe("calc(9ch + 16px)");
  });

  it("add buttons' padding, and keep a declared width as the least", () => {
    expect(columnTrack({ header: "Actions", sortable: false, fit: "content", chrome: 24, texts: ["Success Fail"] })).toBe("calc(12ch + 40px)");
    expect(columnTrack({ header: "Stake", sortable: false, fit: "content", width: "90px", texts: ["10.00"] })).toBe("max(90px, calc(5ch + 16px))");
  });

  it("let free text share the width left, never narrower than its header", () => {
    expect(columnTrack({ header: "Username", sortable: true, texts: ["a-very-long-name"] })).toBe("minmax(calc(10ch + 16px), 1fr)");
    expect(columnTrack({ header: "Bank", sortable: false })).toBe("minmax(calc(8ch + 16px), 1fr)");
    expect(columnTrack({ header: "Event", sortable: false, width: "2fr" })).toBe("2fr");
  });

  it("take the operator's own width (a view's widths) over every other rule", () => {
    expect(columnTrack({ header: "Username", sortable: true, chars: 30 })).toBe("calc(30ch + 16px)");
    expect(columnTrack({ header: "Actions", sortable: false, fit: "content", chrome: 24, width: "90px", texts: ["Success Fail"], chars: 6 })).toBe("calc(6ch + 40px)");
  });
});
