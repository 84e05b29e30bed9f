import { describe, expect, it, vi } from "vitest";
import type { Page, SportsBet } from "../../protocol/wire";
import { pendingView, settleChoicesOf, settledOutcomes, todayIn, totalsOf, type PendingCall, type PendingFilter, type PendingTotalsView } from "./bets.server";
import { MESSAGES } from "./constants";
import { capabilities, createCapabilities } from "./capabilities.server";
import { settlementChunkSchema } from "./forms/settlement";

const bet = (id: number, marketId: string, amount: number, exposure: number) =>
  ({ _id: String(id), eventId: "E1", event: "A v B", marketId, market: marketId, amount, exposure }) as SportsBet;

/** A pending book: `count` bets spread over events E1–E3 and markets M1–M3 of each, oldest first. */
const book = (count: number, over: (i: number) => Partial<SportsBet> = () => ({})): SportsBet[] =>
  Array.from({ length: count }, (_, i) => {
    const eventId = `E${(i % 3) + 1}`;
    const marketId = `${eventId}-M${(Math.floor(i / 3) % 3) + 1}`;
    return {
      _id: String(i + 1),
      eventId,
      event: `Event ${eventId}`,
      marketId,
      market: `Market ${marketId}`,
      type: "odds",
      runner: "India",
      userId: "7",
      sportName: "cricket",
      amount: 100,
      exposure: 100,
      ...over(i),
    } as SportsBet;
  });

/**
 * The pending queue's API: `full` honours the filters and `pageSize` (the reference platform);
 * `spec` answers the whole book whatever the filters, `perPage` a page (an API of docs/product.md §7.2 alone).
 */
function pendingApi(bets: SportsBet[], profile: "full" | "spec", perPage = 20) {
  return vi.fn<PendingCall>(async (filter: PendingFilter, page: number, pageSize = 50, totals = false) => {
    const rows =
      profile === "full"
        ? bets.filter((b) => (!filter.eventId || b.eventId === filter.eventId) && (!filter.marketId || b.marketId === filter.marketId))
        : bets;
    const size = profile === "full" ? pageSize : perPage;
    const answer: Page<SportsBet> = { items: rows.slice((page - 1) * size, page * size), total: rows.length, page, pageSize: size };
    if (profile === "spec" || !totals) return answer;
    const { all, markets } = totalsOf(rows);
    return { ...answer, totals: { ...all, markets } };
  });
}

const ids = (bets: readonly SportsBet[]) => bets.map((b) => b._id);
const of = (bets: SportsBet[], filter: { eventId?: string; marketId?: string }) =>
  bets.filter((b) => (!filter.eventId || b.eventId === filter.eventId) && (!filter.marketId || b.marketId === filter.marketId));

describe("the settlement desk's server helpers", () => {
  it("totals the filtered set per market, largest exposure first, and over all", () => {
    const totals = totalsOf([bet(1, "M1", 100, 100), bet(2, "M2", 100, 85.5), bet(3, "M2", 50.25, 50.25), bet(4, "M1", 0.1, 0.2)]);
    expect(totals.all).toEqual({ count: 4, stake: 250.35, exposure: 235.95 });
    expect(totals.markets.map((market) => [market.marketId, market.count, market.stake, market.exposure])).toEqual([
      ["M2", 2, 150.25, 135.75],
      ["M1", 2, 100.1, 100.2],
    ]);
  });

  it("today's date is the configured zone's, not UTC's", () => {
    // 20:00 UTC is already the next day in Kolkata (UTC+05:30).
    expect(todayIn("Asia/Kolkata", new Date("2026-03-01T20:00:00Z"))).toBe("2026-03-02");
    expect(todayIn("UTC", new Date("2026-03-01T20:00:00Z"))).toBe("2026-03-01");
  });
});

describe("settlement sets the console checks itself", () => {
  const bets = book(300);

  it.each(["full", "spec"] as const)("Settle market… gets exactly the market's bets, every page read (%s API)", async (profile) => {
    const call = pendingApi(bets, profile);
    const choice = await settleChoicesOf(call, { eventId: "E2", marketId: "E2-M3" });
    if (choice.step !== "result") throw new Error(choice.step);
    expect(choice.refusal).toBeNull();
    expect(ids(choice.bets)).toEqual(ids(of(bets, { eventId: "E2", marketId: "E2-M3" })));
    expect(choice.bets.every((b) => b.event === "Event E2" && b.market === "Market E2-M3")).toBe(true);
    // The spec API answered the whole book 20 a page: all 15 pages were read, not the first.
    if (profile === "spec") {
      expect(call).toHaveBeenCalledTimes(15);
      // …and the console learnt what this API lacks.
      expect(capabilities.lack("pendingBets", "pendingBets?marketId")).toBe("answered items that do not match marketId");
      expect(capabilities.lack("pendingBets", "pendingBets?pageSize")).toBe("answered 20 a page when asked 500");
    }
  });

  it.each(["full", "spec"] as const)("Void bets of event… gets exactly the event's bets (%s API)", async (profile) => {
    const choice = await settleChoicesOf(pendingApi(bets, profile), { eventId: "E3" });
    if (choice.step !== "market") throw new Error(choice.step);
    expect(ids(choice.bets)).toEqual(ids(of(bets, { eventId: "E3" })));
    expect(choice.choices.map((market) => market.marketId).sort()).toEqual(["E3-M1", "E3-M2", "E3-M3"]);
    expect(choice.refusal).toBeNull();
  });

  it("lists every event with pending bets, however the API pages", async () => {
    const choice = await settleChoicesOf(pendingApi(bets, "spec", 50), {});
    if (choice.step !== "event") throw new Error(choice.step);
    expect(choice.choices.map((event) => [event.eventId, event.count]).sort()).toEqual([
      ["E1", 100],
      ["E2", 100],
      ["E3", 100],
    ]);
    expect(choice.coverage).toEqual({ read: 300, total: 300, complete: true });
  });

  it("refuses a set it could not read whole, saying how much it read", async () => {
    const choice = await settleChoicesOf(pendingApi(book(10_050), "spec", 500), { eventId: "E1", marketId: "E1-M1" });
    if (choice.step !== "result") throw new Error(choice.step);
    expect(choice.bets).toEqual([]);
    expect(choice.refusal).toBe(
      "Cannot settle this market: only the first 10,000 of 10,050 pending bets could be read, so its bets are not known completely. Nothing was settled.",
    );
  });

  it("refuses a market whose bets disagree on its type", async () => {
    const mixed = book(30, (i) => (i === 27 ? { type: "fancy" } : {}));
    const choice = await settleChoicesOf(pendingApi(mixed, "spec"), { eventId: "E1", marketId: "E1-M1" });
    if (choice.step !== "result") throw new Error(choice.step);
    expect(choice.refusal).toMatch(/disagree on the market's type/);
    expect(choice.bets).toEqual([]);
  });

  it("a chunk with a bet of another market is refused whole", () => {
    const [a, b] = of(bets, { eventId: "E1", marketId: "E1-M1" });
    const stray = of(bets, { eventId: "E1", marketId: "E1-M2" })[0]!;
    const scope = { eventId: "E1", marketId: "E1-M1" };
    const chunk = (list: SportsBet[]) => ({ scope, settlements: list.map((one) => ({ bet: one, status: 2 })) });
    expect(settlementChunkSchema.safeParse(chunk([a!, b!])).success).toBe(true);
    const refused = settlementChunkSchema.safeParse(chunk([a!, stray, b!]));
    expect(refused.error?.issues[0]?.message).toBe(
      `Bet ${stray._id} (event E1, market E1-M2) is not of the chosen market E1-M1: nothing was settled`,
    );
    expect(settlementChunkSchema.safeParse(chunk([a!, a!])).error?.issues[0]?.message).toMatch(/twice/);
  });
});

describe("the pending list's page and totals", () => {
  const bets = book(300);
  const filter = { eventId: "E1", marketId: undefined, user: undefined, sport: undefined };
  const none = { eventId: undefined, marketId: undefined, user: undefined, sport: undefined };
  /** What one API base showed it lacks, fresh for each test. */
  const fresh = () => ({ session: "s1", learnt: createCapabilities(() => "http://api.test") });

  it("an API with the totals extension: one call, the page and its totals whole", async () => {
    const call = pendingApi(book(10_001), "full");
    const view = await pendingView(call, { ...none, page: 1 }, fresh());
    expect(call).toHaveBeenCalledOnce();
    expect(call).toHaveBeenCalledWith(none, 1, undefined, true);
    expect(view.list).not.toHaveProperty("totals");
    expect(view.totals).toMatchObject({ all: { count: 10_001, stake: 1_000_100, exposure: 1_000_100 }, coverage: { complete: true } });
    const filtered = await pendingView(pendingApi(bets, "full"), { ...filter, page: 1 }, fresh());
    expect(filtered.totals).toMatchObject({ all: { count: 100 }, coverage: { complete: true } });
    expect((filtered.totals as PendingTotalsView).markets.map((market) => market.marketId)).toEqual(["E1-M1", "E1-M2", "E1-M3"]);
  });

  it("an API without it: learnt from its first answer, not asked again", async () => {
    const options = fresh();
    const call = pendingApi(bets, "spec", 50);
    await pendingView(call, { ...filter, page: 1 }, options);
    expect(call.mock.calls[0]![3]).toBe(true);
    expect(options.learnt.lack("pendingBets", "pendingBets?totals")).toBe("answered without totals");
    call.mockClear();
    await pendingView(call, { ...filter, page: 1 }, options);
    expect(call.mock.calls.every((args) => !args[3])).toBe(true);
  });

  it("a filter the API ignored: the page and its count are the event's bets, the totals whole", async () => {
    const view = await pendingView(pendingApi(bets, "spec", 50), { ...filter, page: 2 }, fresh());
    const event = of(bets, { eventId: "E1" });
    expect(view.list.total).toBe(100);
    expect(ids(view.list.items)).toEqual(ids(event.slice(50, 100)));
    expect(view.totals).toMatchObject({ all: { count: 100, stake: 10_000, exposure: 10_000 }, coverage: { complete: true } });
    expect(view.coverage).toBeNull();
  });

  it("the whole queue without the extension: the page at once, the totals counted over every page of 20 in the background", async () => {
    const view = await pendingView(pendingApi(bets, "spec", 20), { ...none, page: 1 }, fresh());
    expect(view.list.total).toBe(300);
    expect(view.totals).toBeInstanceOf(Promise);
    expect(await view.totals).toMatchObject({ all: { count: 300, stake: 30_000, exposure: 30_000 }, coverage: { complete: true } });
  });

  it("past the bound, the background count says how much it read; a reload while it runs shares it", async () => {
    const call = pendingApi(book(10_050), "spec", 500);
    const options = fresh();
    const [first, again] = await Promise.all([pendingView(call, { ...none, page: 1 }, options), pendingView(call, { ...none, page: 2 }, options)]);
    expect(again.totals).toBe(first.totals);
    expect((await first.totals).coverage).toEqual({ read: 10_000, total: 10_050, complete: false });
    // Two pages, one count of 20 pages (the first of them asking totals too).
    expect(call).toHaveBeenCalledTimes(22);
  });

  it("a filter the API ignored over more than the bound: what was read, said as such", async () => {
    const view = await pendingView(pendingApi(book(10_050), "spec", 500), { ...filter, page: 1 }, fresh());
    expect(view.coverage).toEqual({ read: 10_000, total: 10_050, complete: false });
    expect(view.totals).toMatchObject({ coverage: { complete: false } });
    expect(view.list.items.every((b) => b.eventId === "E1")).toBe(true);
  });
});

describe("a /settle-bets answer, as the console reads it", () => {
  const sent = ["11", "12", "13"].map((_id) => ({ bet: { _id }, status: 2 as const }));
  const unanswered = { outcome: "unknown", status: null, message: MESSAGES.settlementUnanswered };

  it("reads each bet's own result: 2xx done, 4xx refused, anything else unknown", () => {
    const answer = {
      results: [
        { _id: "11", code: 200, msg: "Bet settled successfully!" },
        { _id: "12", code: 409, msg: "Bet already settled" },
        { _id: "13", code: 500, msg: "Something went wrong" },
      ],
    };
    expect(settledOutcomes(sent, answer)).toEqual([
      { outcome: "ok", status: 200, message: "Bet settled successfully!" },
      { outcome: "refused", status: 409, message: "Bet already settled" },
      { outcome: "unknown", status: 500, message: "Something went wrong" },
    ]);
  });

  it("trusts no result that is not the bet's own in its place: short, reordered, malformed or no results", () => {
    const ok = (_id: string) => ({ _id, code: 200, msg: "ok" });
    expect(settledOutcomes(sent, { results: [ok("11")] })).toEqual([{ outcome: "ok", status: 200, message: "ok" }, unanswered, unanswered]);
    expect(settledOutcomes(sent, { results: [ok("12"), ok("11"), ok("13")] })).toEqual([unanswered, unanswered, { outcome: "ok", status: 200, message: "ok" }]);
    expect(settledOutcomes(sent, { results: [{ _id: 11, code: 200, msg: "ok" }, { _id: "12", code: "200", msg: "ok" }, { _id: "13", code: 200 }] })).toEqual([
      unanswered,
      unanswered,
      unanswered,
    ]);
    for (const answer of [null, {}, { results: "all settled" }, []]) expect(settledOutcomes(sent, answer)).toEqual([unanswered, unanswered, unanswered]);
  });
});
