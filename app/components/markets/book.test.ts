import { describe, expect, it } from "vitest";
import type { MarketBets } from "../../../protocol/wire";
import { bookLines, eventWorstCase, worstCases } from "./book";

const quote = { price: 2, size: 100 };
const BOOK: MarketBets = {
  odds: [{ marketId: "E-MO", name: "Match Odds", status: "OPEN", runners: [
    { name: "Alpha", status: "ACTIVE", profit: -50, back: quote, lay: quote },
    { name: "Beta", status: "ACTIVE", profit: 40, back: quote, lay: quote },
  ] }],
  bookmakers: [{ marketId: "E-BM", name: "Bookmaker", status: "OPEN", runners: [
    { name: "Alpha", status: "ACTIVE", profit: 10, back: 1.9, lay: 2 },
    { name: "Beta", status: "ACTIVE", profit: 5, back: 1.8, lay: 1.85 },
  ] }],
  fancy: { Session: [{ marketId: "E-F6", name: "6 Over Runs", status: "OPEN", amounts: 200, back: quote, lay: quote, numbers: [
    { num: 44, profit: 0 }, { num: 45, profit: 210 }, { num: 46, profit: -20 },
  ] }] },
  users: [],
};

describe("market book view", () => {
  it("lists runners then fancy entries in screen order, one cursor stop each", () => {
    expect(bookLines(BOOK).map((line) => line.key)).toEqual(["E-MO:Alpha", "E-MO:Beta", "E-BM:Alpha", "E-BM:Beta", "E-F6"]);
  });

  it("takes each market's largest loss, nothing for a market that gains everywhere, and sums them for the event", () => {
    expect(Object.fromEntries(worstCases(BOOK))).toEqual({ "E-MO": -50, "E-BM": 0, "E-F6": -20 });
    expect(eventWorstCase(BOOK)).toBe(-70);
  });
});
