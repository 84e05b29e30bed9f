/**
 * docs/product.md §2.14: one event's book. The users row (choosing one filters the book to that user's
 * bets; Esc clears), the scorecard frame, and the odds, bookmaker and fancy blocks; each market
 * with its worst case, and the event's. `j`/`k` move over runners and fancy entries, Enter on a
 * fancy entry opens Run Amount, `o` and `s` reach the cursor market's pending bets and Settle
 * market…, `u`/`U` step through the users. A relayed `market-update` of this event refetches at
 * once, the 10-second poll is the fallback; the page keeps its numbers and cursor meanwhile.
 */
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import type { ReactNode } from "react";
import type { BookMarket, MarketQuote } from "../../../protocol/wire";
import { marketDetailPath } from "../../commands/markets";
import { MARKET_REFRESH_MS } from "../../lib/constants";
import { formatMoney } from "../../lib/format";
import type { MarketDetailData } from "../../lib/markets.server";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { useMarketUpdates } from "../../lib/use-realtime";
import { useListScreen } from "../ui/use-list-screen";
import { bookLines, eventWorstCase, worstCases, type BookLine } from "./book";
import { BookValue, StatusNote } from "./BookValue";
import { RunAmount } from "./RunAmount";

/** The pending-bets desk, on one market; `settle` opens its Settle market… with it chosen. */
const pendingHref = (line: BookLine, eventId: string, settle: boolean) =>
  `/pending-sport-bets?${new URLSearchParams({ eventId, marketId: line.marketId, ...(settle ? { settle: "1" } : {}) })}`;

const price = (value: number | null) => (value === null ? "–" : value.toFixed(2));
const quote = (value: MarketQuote) => (
  <>
    {price(value.price)} <span className="dim">{value.size === null ? "" : formatMoney(value.size)}</span>
  </>
);

export function MarketDetailScreen() {
  const { sport, eventId, client, event, book, scorecard } = useLoaderData<MarketDetailData>();
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  const [runAmountOf, setRunAmountOf] = useState<string | null>(null);
  useMarketUpdates((update) => {
    if (update.eventId === eventId) revalidate();
  });

  const lines = bookLines(book);
  const worst = worstCases(book);
  const base = marketDetailPath(sport, eventId);
  const chooseUser = (id: string | null) => navigate(id ? `${base}?client=${id}` : base, { replace: true, preventScrollReset: true });
  const stepUser = (by: 1 | -1) => {
    if (book.users.length === 0) return false;
    const at = book.users.findIndex((user) => user._id === client);
    const next = at < 0 ? (by === 1 ? 0 : book.users.length - 1) : (at + by + book.users.length) % book.users.length;
    chooseUser(book.users[next]!._id);
  };
  const { cursorRow }: { cursorRow: BookLine | undefined } = useListScreen<BookLine>({
    list: { items: lines, total: lines.length, page: 1, pageSize: Math.max(1, lines.length) },
    rowKey: (line) => line.key,
    pageHref: () => base,
    pageKey: base,
    refreshMs: MARKET_REFRESH_MS,
    active: runAmountOf === null,
    keys: {
      "list.open": (): boolean | void => (cursorRow?.kind === "fancy" ? setRunAmountOf(cursorRow.marketId) : false),
      "list.close": (): boolean | void => (client ? chooseUser(null) : false),
      "markets.pending": (): boolean | void => (cursorRow ? navigate(pendingHref(cursorRow, eventId, false)) : false),
      "markets.settle": (): boolean | void => (cursorRow ? navigate(pendingHref(cursorRow, eventId, true)) : false),
      "markets.next-user": () => stepUser(1),
      "markets.previous-user": () => stepUser(-1),
    },
  });
  const isCursor = (key: string) => (cursorRow?.key === key ? "" : undefined);
  const runAmountEntry = Object.values(book.fancy)
    .flat()
    .find((entry) => entry.marketId === runAmountOf);

  return (
    <div className="market-detail">
      <header className="market-head">
        <Link to="/market-analysis">Market Analysis</Link> /{" "}
        <strong>{event ? `${event.teamA} v ${event.teamB}` : eventId}</strong>
        {event?.inplay && <span className="profit"> (Live)</span>}
        <span className="market-worst">
          {" "}
          Worst case <BookValue value={eventWorstCase(book)} />
        </span>
      </header>

      {book.users.length > 0 && (
        <nav aria-label="Users" className="market-users">
          {book.users.map((user) => (
            <button
              key={user._id}
              type="button"
              aria-pressed={user._id === client}
              className={user._id === client ? "chosen" : undefined}
              onClick={() => chooseUser(user._id === client ? null : user._id)}
            >
              {user.username}
            </button>
          ))}
          {(book.usersTotal ?? 0) > book.users.length && (
            <span className="dim">
              {" "}
              first {book.users.length} of {book.usersTotal} users
            </span>
          )}
        </nav>
      )}

      {scorecard && <iframe className="scorecard" title="Scorecard" src={scorecard} referrerPolicy="no-referrer" />}

      <RunnerBlock title="Odds" markets={book.odds} worst={worst} isCursor={isCursor} priceOf={quote} />
      <RunnerBlock title="Bookmaker" markets={book.bookmakers} worst={worst} isCursor={isCursor} priceOf={price} />

      <section aria-label="Fancy" className="market-block">
        <h2>Fancy</h2>
        {Object.entries(book.fancy).map(([heading, entries]) => (
          <table key={heading} aria-label={heading}>
            <caption>{heading}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="num">Amount</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">No (line, rate)</th>
                <th scope="col" className="num">Yes (line, rate)</th>
                <th scope="col" className="num">Worst</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.marketId} data-cursor={isCursor(entry.marketId)} onClick={() => setRunAmountOf(entry.marketId)} className="clickable">
                  <th scope="row">{entry.name}</th>
                  <td className="num">{formatMoney(entry.amounts)}</td>
                  <td>{entry.status}</td>
                  <td className="num lay">{quote(entry.lay)}</td>
                  <td className="num back">{quote(entry.back)}</td>
                  <td className="num"><BookValue value={worst.get(entry.marketId) ?? 0} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>

      {runAmountEntry && <RunAmount entry={runAmountEntry} onClose={() => setRunAmountOf(null)} />}
    </div>
  );
}

/** The odds block (a price and size a side) or the bookmaker block (one price a side). */
function RunnerBlock<Quote>({
  title,
  markets,
  worst,
  isCursor,
  priceOf,
}: {
  title: string;
  markets: BookMarket<Quote>[];
  worst: Map<string, number>;
  isCursor: (key: string) => "" | undefined;
  priceOf: (quote: Quote) => ReactNode;
}) {
  return (
    <section aria-label={title} className="market-block">
      <h2>{title}</h2>
      {markets.map((market) => (
        <table key={market.marketId} aria-label={market.name}>
          <caption>
            {market.name} <StatusNote status={market.status} /> <span className="dim">worst</span> <BookValue value={worst.get(market.marketId) ?? 0} />
          </caption>
          <thead>
            <tr>
              <th scope="col">Runner</th>
              <th scope="col" className="num">Book</th>
              <th scope="col" className="num">Back</th>
              <th scope="col" className="num">Lay</th>
            </tr>
          </thead>
          <tbody>
            {market.runners.map((runner) => (
              <tr key={runner.name} data-cursor={isCursor(`${market.marketId}:${runner.name}`)} data-runner={runner.name}>
                <th scope="row">
                  {runner.name} <StatusNote status={runner.status} />
                </th>
                <td className="num"><BookValue value={runner.profit} /></td>
                <td className="num back">{priceOf(runner.back)}</td>
                <td className="num lay">{priceOf(runner.lay)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
