/**
 * The detail screen's view of an event's book: its runners and fancy entries as one cursor
 * list (odds, then bookmaker, then fancy by heading), and the worst case of a market and of the
 * event: the house's largest loss over the outcomes of each market.
 */
import type { FancyEntry, MarketBets } from "../../../protocol/wire";

export type BookLine =
  | { key: string; kind: "odds" | "bookmaker"; marketId: string; market: string; runner: string }
  | { key: string; kind: "fancy"; marketId: string; market: string; heading: string; entry: FancyEntry };

export function bookLines(book: MarketBets): BookLine[] {
  const runners = (kind: "odds" | "bookmaker", markets: MarketBets["odds"] | MarketBets["bookmakers"]): BookLine[] =>
    markets.flatMap((market) =>
      market.runners.map((runner) => ({ key: `${market.marketId}:${runner.name}`, kind, marketId: market.marketId, market: market.name, runner: runner.name })),
    );
  return [
    ...runners("odds", book.odds),
    ...runners("bookmaker", book.bookmakers),
    ...Object.entries(book.fancy).flatMap(([heading, entries]) =>
      entries.map((entry): BookLine => ({ key: entry.marketId, kind: "fancy", marketId: entry.marketId, market: entry.name, heading, entry })),
    ),
  ];
}

/** A market's worst outcome for the house: its lowest book (a loss when negative), 0 without outcomes. */
export const worstOf = (profits: readonly number[]): number => Math.min(0, ...profits);

/** Every market's worst case, by market id. */
export function worstCases(book: MarketBets): Map<string, number> {
  return new Map([
    ...[...book.odds, ...book.bookmakers].map((market) => [market.marketId, worstOf(market.runners.map((runner) => runner.profit))] as const),
    ...Object.values(book.fancy)
      .flat()
      .map((entry) => [entry.marketId, worstOf(entry.numbers.map((row) => row.profit))] as const),
  ]);
}

/** The event's worst case: every market settling against the house at once. */
export const eventWorstCase = (book: MarketBets): number => [...worstCases(book).values()].reduce((sum, worst) => sum + worst, 0);
