/**
 * The market book (docs/protocol.md "Market book"): each runner's book from the open positions
 * (book-repository.ts), for the house or a partner's subtree at 100 %, optionally one user's.
 * A runner's book is what its position gains if it wins plus what every other runner's
 * position gains if they lose; a fancy run count's book sums each line's position on the
 * side that count falls on.
 */
import type { BookMarket, FancyEntry, MarketBets, MarketGreen, MarketQuote } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { minorToAmount } from "../../money.js";
import { marketsOf, sumPositions, usersWithPositions, type BookScope, type MarketRunnerRow, type PositionSum } from "./book-repository.js";

/** Run counts shown either side of the lowest and highest line of a fancy entry. */
export const LADDER_MARGIN = 5;

const amount = (value: string | null) => (value === null ? null : Number(value));
const quote = (price: string | null, size: string | null): MarketQuote => ({ price: amount(price), size: amount(size) });

type Market = { marketId: string; eventId: string; type: MarketRunnerRow["type"]; name: string; heading: string | null; status: string; runners: MarketRunnerRow[] };

function groupMarkets(rows: MarketRunnerRow[]): Market[] {
  const markets = new Map<string, Market>();
  for (const row of rows) {
    const market = markets.get(row.market_id) ?? {
      marketId: row.market_id,
      eventId: row.event_id,
      type: row.type,
      name: row.market_name,
      heading: row.heading,
      status: row.market_status,
      runners: [],
    };
    market.runners.push(row);
    markets.set(row.market_id, market);
  }
  return [...markets.values()];
}

/** Each runner's book in minor units: its position if it wins, every other runner's if it loses. */
export function runnerBooks(runners: string[], positions: PositionSum[]): Map<string, bigint> {
  const ifLostTotal = positions.reduce((sum, position) => sum + position.if_lost, 0n);
  return new Map(
    runners.map((runner) => {
      const own = positions.filter((position) => position.runner === runner);
      const ownWon = own.reduce((sum, position) => sum + position.if_won, 0n);
      const ownLost = own.reduce((sum, position) => sum + position.if_lost, 0n);
      return [runner, ownWon + ifLostTotal - ownLost];
    }),
  );
}

/** The book for each final run count from LADDER_MARGIN below the lowest line to as far above the highest. */
export function runLadder(lines: number[], positions: PositionSum[]): { num: number; profit: bigint }[] {
  const all = [...lines, ...positions.map((position) => Number(position.line))];
  if (all.length === 0) return [];
  const from = Math.max(0, Math.floor(Math.min(...all)) - LADDER_MARGIN);
  const to = Math.ceil(Math.max(...all)) + LADDER_MARGIN;
  const ladder: { num: number; profit: bigint }[] = [];
  for (let num = from; num <= to; num += 1) {
    const profit = positions.reduce((sum, position) => sum + (num >= Number(position.line) ? position.if_won : position.if_lost), 0n);
    ladder.push({ num, profit });
  }
  return ladder;
}

function positionsByMarket(positions: PositionSum[]) {
  const byMarket = new Map<string, PositionSum[]>();
  for (const position of positions) byMarket.set(position.market_id, [...(byMarket.get(position.market_id) ?? []), position]);
  return byMarket;
}

export async function marketBets(db: Db, eventId: string, scope: BookScope, usersLimit?: number): Promise<MarketBets> {
  const [rows, positions, users] = await Promise.all([
    marketsOf(db, [eventId]),
    sumPositions(db, [eventId], scope),
    usersWithPositions(db, eventId, scope.within, usersLimit),
  ]);
  const byMarket = positionsByMarket(positions);
  const answer: MarketBets = {
    odds: [],
    bookmakers: [],
    fancy: {},
    users: users.first.map((user) => ({ _id: String(user.id), username: user.username })),
    usersTotal: users.total,
  };
  for (const market of groupMarkets(rows)) {
    const held = byMarket.get(market.marketId) ?? [];
    if (market.type === "fancy") {
      const runner = market.runners[0]!;
      const lines = [runner.back_price, runner.lay_price].filter((line) => line !== null).map(Number);
      const entry: FancyEntry = {
        marketId: market.marketId,
        name: market.name,
        status: market.status,
        amounts: minorToAmount(held.reduce((sum, position) => sum + position.stake, 0n)),
        back: quote(runner.back_price, runner.back_size),
        lay: quote(runner.lay_price, runner.lay_size),
        numbers: runLadder(lines, held).map(({ num, profit }) => ({ num, profit: minorToAmount(profit) })),
      };
      (answer.fancy[market.heading ?? market.name] ??= []).push(entry);
      continue;
    }
    const books = runnerBooks(
      market.runners.map((runner) => runner.runner),
      held,
    );
    const base = { marketId: market.marketId, name: market.name, status: market.status };
    const profitOf = (runner: MarketRunnerRow) => minorToAmount(books.get(runner.runner)!);
    if (market.type === "odds") {
      const odds: BookMarket = {
        ...base,
        runners: market.runners.map((runner) => ({
          name: runner.runner,
          status: runner.runner_status,
          profit: profitOf(runner),
          back: quote(runner.back_price, runner.back_size),
          lay: quote(runner.lay_price, runner.lay_size),
        })),
      };
      answer.odds.push(odds);
    } else {
      answer.bookmakers.push({
        ...base,
        runners: market.runners.map((runner) => ({ name: runner.runner, status: runner.runner_status, profit: profitOf(runner), back: amount(runner.back_price), lay: amount(runner.lay_price) })),
      });
    }
  }
  return answer;
}

/**
 * Green: on every odds and bookmaker market of the event that holds open bets in scope, the
 * book gains whichever runner wins. An event without such bets gains nothing and is not green.
 */
export async function marketGreen(db: Db, eventIds: string[], scope: BookScope): Promise<MarketGreen> {
  const [rows, positions] = await Promise.all([marketsOf(db, eventIds), sumPositions(db, eventIds, scope)]);
  const byMarket = positionsByMarket(positions);
  const green: MarketGreen = Object.fromEntries(eventIds.map((eventId) => [eventId, false]));
  const held = groupMarkets(rows).filter((market) => market.type !== "fancy" && byMarket.has(market.marketId));
  for (const eventId of new Set(held.map((market) => market.eventId))) {
    green[eventId] = held
      .filter((market) => market.eventId === eventId)
      .every((market) => [...runnerBooks(market.runners.map((runner) => runner.runner), byMarket.get(market.marketId)!).values()].every((book) => book > 0n));
  }
  return green;
}
