import { describe, expect, it } from "vitest";
import type { MarketBets } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { BOARD_CONCURRENCY, createBookCache, type BoardQuery } from "./markets.server";

const bookOf = (eventId: string): MarketBets => ({ odds: [], bookmakers: [], fancy: {}, users: [{ _id: eventId, username: eventId }] });
const events = (count: number): BoardQuery[] => Array.from({ length: count }, (_, i) => ({ sport: "cricket", eventId: `E${i}` }));

/** A fake `/market-bets` whose answers the test releases by hand, recording what was asked and how many at once. */
function fakeCall() {
  const asked: string[] = [];
  const waiting: Array<() => void> = [];
  let open = 0;
  let most = 0;
  const call = (event: BoardQuery) => {
    asked.push(event.eventId);
    most = Math.max(most, ++open);
    return new Promise<MarketBets>((resolve, reject) => {
      waiting.push(() => {
        open--;
        if (event.eventId === "missing") reject(new ApiError("Event not found", 404));
        else resolve(bookOf(event.eventId));
      });
    });
  };
  /** Answers every call made so far, and those they let start, until none is waiting. */
  const answerAll = async () => {
    for (let round = 0; round < 100 && (waiting.length > 0 || round === 0); round++) {
      for (const answer of waiting.splice(0)) answer();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { call, asked, answerAll, most: () => most };
}

describe("the board's book loader", () => {
  it("asks at most BOARD_CONCURRENCY events at once and answers each in the order asked", async () => {
    const upstream = fakeCall();
    const loading = createBookCache().books("op", events(11), upstream.call);
    await upstream.answerAll();
    const rows = await loading;
    expect(upstream.most()).toBe(BOARD_CONCURRENCY);
    expect(upstream.asked).toHaveLength(11);
    expect(rows.map((row) => row.eventId)).toEqual(events(11).map((event) => event.eventId));
    expect(rows[3]).toEqual({ eventId: "E3", book: bookOf("E3") });
  });

  it("reuses an operator's reading for its lifetime, reads again after it or when asked fresh, and never shares it with another operator", async () => {
    let now = 1_000;
    const cache = createBookCache({ ttlMs: 5_000, now: () => now });
    const upstream = fakeCall();
    const read = async (operator: string, fresh = false) => {
      const loading = cache.books(operator, events(2), upstream.call, fresh);
      await upstream.answerAll();
      return loading;
    };
    await read("op");
    now += 4_999;
    await read("op");
    expect(upstream.asked).toEqual(["E0", "E1"]);
    await read("other");
    expect(upstream.asked).toHaveLength(4);
    await read("op", true);
    expect(upstream.asked).toHaveLength(6);
    now += 5_000;
    await read("op");
    expect(upstream.asked).toHaveLength(8);
  });

  it("shares a reading still under way", async () => {
    const cache = createBookCache();
    const upstream = fakeCall();
    const first = cache.books("op", events(1), upstream.call);
    const second = cache.books("op", events(1), upstream.call);
    await upstream.answerAll();
    expect(await first).toEqual(await second);
    expect(upstream.asked).toEqual(["E0"]);
  });

  it("answers a refusal for its event alone and does not keep it", async () => {
    const cache = createBookCache();
    const upstream = fakeCall();
    const asking = [{ sport: "cricket", eventId: "missing" }, ...events(1)] satisfies BoardQuery[];
    const loading = cache.books("op", asking, upstream.call);
    await upstream.answerAll();
    expect(await loading).toEqual([
      { eventId: "missing", error: "Event not found" },
      { eventId: "E0", book: bookOf("E0") },
    ]);
    const again = cache.books("op", asking, upstream.call);
    await upstream.answerAll();
    await again;
    expect(upstream.asked).toEqual(["missing", "E0", "missing"]);
  });

  it("passes on what is not an upstream refusal (a session that ended)", async () => {
    const signedOut = new Response(null, { status: 302 });
    await expect(createBookCache().books("op", events(1), () => Promise.reject(signedOut))).rejects.toBe(signedOut);
  });
});
