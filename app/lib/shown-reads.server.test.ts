import { describe, expect, it } from "vitest";
import type { SportsBet } from "../../protocol/wire";
import { SHOWN_READ_TTL_MS } from "./constants";
import { rememberShown, takeShown } from "./shown-reads.server";

const bets = (id: string) => [{ _id: id } as SportsBet];
const market = { eventId: "e1", marketId: "m1" };

describe("the read a confirmation showed", () => {
  it("is taken once, by its own session and scope, while fresh", () => {
    rememberShown("s1", market, bets("b1"), 1_000);
    expect(takeShown("s2", market, 1_000)).toBeUndefined();
    expect(takeShown("s1", { eventId: "e1" }, 1_000)).toBeUndefined();
    expect(takeShown("s1", market, 1_000 + SHOWN_READ_TTL_MS)).toEqual(bets("b1"));
    expect(takeShown("s1", market, 1_000)).toBeUndefined();
  });

  it("is not taken once older than its time to live, and a newer read replaces it", () => {
    rememberShown("s1", market, bets("old"), 0);
    expect(takeShown("s1", market, SHOWN_READ_TTL_MS + 1)).toBeUndefined();
    rememberShown("s1", market, bets("old"), 0);
    rememberShown("s1", market, bets("new"), 10);
    expect(takeShown("s1", market, 20)).toEqual(bets("new"));
  });

  it("keeps a bounded number of reads, dropping the oldest", () => {
    for (let index = 0; index < 300; index++) rememberShown(`s${index}`, market, bets(String(index)), 5);
    expect(takeShown("s0", market, 5)).toBeUndefined();
    expect(takeShown("s299", market, 5)).toEqual(bets("299"));
  });
});
