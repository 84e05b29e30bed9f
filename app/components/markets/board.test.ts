import { describe, expect, it } from "vitest";
import type { MarketBets, SportsEvent } from "../../../protocol/wire";
import { boardFigures, nextBatch, orderEvents, type BoardCell } from "./board";
import { eventWorstCase } from "./book";

const quote = { price: 2, size: 100 };
const runner = (name: string, profit: number) => ({ name, status: "ACTIVE", profit, back: quote, lay: quote });
const fancy = (marketId: string, amounts: number, profits: number[]) => ({
  marketId,
  name: marketId,
  status: "OPEN",
  amounts,
  back: quote,
  lay: quote,
  numbers: profits.map((profit, num) => ({ num, profit })),
});
const BOOK: MarketBets = {
  odds: [{ marketId: "E-MO", name: "Match Odds", status: "OPEN", runners: [runner("Alpha", -50), runner("Beta", 40)] }],
  bookmakers: [{ marketId: "E-BM", name: "Bookmaker", status: "OPEN", runners: [{ ...runner("Alpha", -30), back: 1.9, lay: 2 }] }],
  fancy: { Session: [fancy("E-F6", 200.1, [0, 210, -20]), fancy("E-F10", 99.95, [15])], Overs: [fancy("E-O", 0.05, [3])] },
  users: [
    { _id: "1", username: "user0001" },
    { _id: "2", username: "user0002" },
  ],
};

const event = (eventId: string, startTime: string, inplay = false): SportsEvent => ({ eventId, sport: 0, teamA: "A", teamB: "B", inplay, startTime });
const worst = (entries: Record<string, number>) =>
  new Map<string, BoardCell>(
    Object.entries(entries).map(([eventId, worstCase]) => [eventId, { figures: { worstCase, bettors: 1, fancyStake: 0 } }]),
  );

describe("the liability board", () => {
  it("takes the event's worst case from the detail screen's helper, counts the users holding open bets and sums the fancy stake", () => {
    expect(boardFigures(BOOK)).toEqual({ worstCase: eventWorstCase(BOOK), bettors: 2, fancyStake: 300.1 });
    expect(boardFigures(BOOK).worstCase).toBe(-100);
  });

  it("counts the users the API counted when it lists none (usersTotal)", () => {
    expect(boardFigures({ ...BOOK, users: [], usersTotal: 184_414 }).bettors).toBe(184_414);
  });

  it("an empty book is nothing at risk", () => {
    expect(boardFigures({ odds: [], bookmakers: [], fancy: {}, users: [] })).toEqual({ worstCase: 0, bettors: 0, fancyStake: 0 });
  });

  it("orders by worst case, the largest loss first, events without figures last, ties in the platform's order", () => {
    const events = [event("live", "2026-01-01T10:00:00Z", true), event("a", "2026-01-01T12:00:00Z"), event("b", "2026-01-01T11:00:00Z"), event("c", "2026-01-01T09:00:00Z")];
    const cells = worst({ a: -10, b: -500, c: -10 });
    cells.set("live", { error: "Event not found" });
    expect(orderEvents(events, "worst", cells).map((each) => each.eventId)).toEqual(["b", "a", "c", "live"]);
    expect(orderEvents(events, "worst", new Map()).map((each) => each.eventId)).toEqual(["live", "a", "b", "c"]);
  });

  it("orders by start time, the earliest first", () => {
    const events = [event("live", "2026-01-01T10:00:00Z", true), event("a", "2026-01-01T12:00:00Z"), event("b", "2026-01-01T09:00:00Z")];
    expect(orderEvents(events, "start", worst({ a: -900 })).map((each) => each.eventId)).toEqual(["b", "live", "a"]);
  });

  it("asks for events a market-update named first, past the cache, then the rest in the board's order, a batch at a time", () => {
    const order = ["a", "b", "c", "d", "e"];
    expect(nextBatch(new Map([["a", false], ["d", true], ["c", false], ["e", true]]), order, 8)).toEqual({ eventIds: ["d", "e"], fresh: true });
    expect(nextBatch(new Map([["e", false], ["a", false], ["c", false]]), order, 2)).toEqual({ eventIds: ["a", "c"], fresh: false });
    expect(nextBatch(new Map([["gone", true]]), order, 2)).toEqual({ eventIds: [], fresh: false });
  });
});
