/**
 * docs/product.md §2.13 as a liability board (issue 21): a table per sport, each event a link `team A v
 * team B` with `(Live)` or its start time, the users holding open bets, the fancy lines' open
 * stake, the worst case of the caller's book and the green-book flag. Names and times paint at
 * once; the figures fill in per row as `/market-bets` answers (use-board-figures.ts). Worst case
 * first within each sport, or by start time: `t` switches (`?order=start`). `j`/`k` move (a moved
 * cursor stays on its event when rows move), Enter opens.
 */
import { Link, useLoaderData, useNavigate, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { marketDetailPath } from "../../commands/markets";
import { MARKET_REFRESH_MS } from "../../lib/constants";
import { formatDateTime, formatMoney } from "../../lib/format";
import type { MarketListData } from "../../lib/markets.server";
import { useListScreen } from "../ui/use-list-screen";
import { BOARD_ORDER_LABELS, orderEvents, type BoardCell, type BoardEvent, type BoardOrder } from "./board";
import { BookValue } from "./BookValue";
import { useBoardFigures } from "./use-board-figures";

const BOARD_COLUMN_WIDTHS = ["32%", "16%", "9%", "14%", "15%", "14%"];

const orderOf = (params: URLSearchParams): BoardOrder => (params.get("order") === "start" ? "start" : "worst");

/** Switching the order only reorders what the screen holds: the list is not read again for it. */
export const boardShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search ? false : defaultShouldRevalidate;

export function MarketListScreen() {
  const { sports, green } = useLoaderData<MarketListData>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const order = orderOf(params);
  const events = useMemo(() => sports.flatMap(({ sport, events }) => events.map((event): BoardEvent => ({ ...event, sportName: sport }))), [sports]);
  const cells = useBoardFigures(events);
  const board = sports.map(({ sport }) => ({ sport, events: orderEvents(events.filter((event) => event.sportName === sport), order, cells) }));
  const rows = board.flatMap((group) => group.events);

  const hrefOf = (event: BoardEvent) => marketDetailPath(event.sportName, event.eventId);
  const switchOrder = () => navigate({ search: order === "worst" ? "?order=start" : "" }, { replace: true, preventScrollReset: true });
  const { cursorRow, table }: { cursorRow: BoardEvent | undefined; table: { cursor: number; onCursorChange: (cursor: number) => void } } =
    useListScreen<BoardEvent>({
      list: { items: rows, total: rows.length, page: 1, pageSize: Math.max(1, rows.length) },
      rowKey: (row) => row.eventId,
      pageHref: () => "",
      pageKey: "markets",
      refreshMs: MARKET_REFRESH_MS,
      keys: {
        "list.open": (): boolean | void => (cursorRow ? navigate(hrefOf(cursorRow)) : false),
        "markets.sort": switchOrder,
      },
    });
  useCursorFollowsEvent(
    rows.map((row) => row.eventId),
    table.cursor,
    table.onCursorChange,
  );

  return (
    <div className="market-list">
      <p className="market-board-head">
        <button type="button" onClick={switchOrder} aria-keyshortcuts="t">
          Order: {BOARD_ORDER_LABELS[order]}
        </button>{" "}
        <span className="dim">
          <kbd>t</kbd> switches · /market-bets counts no bets: Bettors are the users with open bets, the stake is the fancy lines' only
        </span>
      </p>
      {board.map(({ sport, events: ordered }) => (
        <section key={sport} aria-labelledby={`sport-${sport}`} className="market-block">
          <h2 id={`sport-${sport}`} className="market-sport">
            {sport}
          </h2>
          {ordered.length === 0 ? (
            <p className="dim">No events</p>
          ) : (
            <table aria-labelledby={`sport-${sport}`} className="market-board">
              {/* The same widths for every sport, so the figures line up down the board. */}
              <colgroup>
                {BOARD_COLUMN_WIDTHS.map((width, index) => (
                  <col key={index} style={{ width }} />
                ))}
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Start</th>
                  <th scope="col" className="num">Bettors</th>
                  <th scope="col" className="num">Fancy stake</th>
                  <th scope="col" className="num">Worst case</th>
                  <th scope="col">Green</th>
                </tr>
              </thead>
              <tbody>
                {ordered.map((event) => (
                  <tr key={event.eventId} data-event-id={event.eventId} data-cursor={cursorRow?.eventId === event.eventId ? "" : undefined}>
                    <th scope="row">
                      <Link to={hrefOf(event)}>
                        {event.teamA} v {event.teamB}
                      </Link>
                    </th>
                    <td>{event.inplay ? <span className="profit">(Live)</span> : formatDateTime(event.startTime)}</td>
                    <FigureCells cell={cells.get(event.eventId)} />
                    <td>{green[event.eventId] && <span className="profit market-green">● green book</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </div>
  );
}

/** Bettors, fancy stake and worst case: still loading, why they are missing, or the figures. */
function FigureCells({ cell }: { cell: BoardCell | undefined }) {
  if (!cell)
    return (
      <td colSpan={3} className="num dim" aria-busy="true">
        loading…
      </td>
    );
  if ("error" in cell)
    return (
      <td colSpan={3} className="num pending">
        {cell.error}
      </td>
    );
  const { bettors, fancyStake, worstCase } = cell.figures;
  return (
    <>
      <td className="num">{bettors}</td>
      <td className="num">{formatMoney(fancyStake)}</td>
      {/* Nothing open, nothing at risk: a dash, not a red ▼ 0.00 on every quiet event. */}
      <td className="num">{bettors === 0 ? <span className="dim" aria-label="no open bets">–</span> : <BookValue value={worstCase} />}</td>
    </>
  );
}

/**
 * Once the operator has moved the cursor, it stays on that event when the rows move (figures
 * arriving, the order switched); until then it stays on the first row, the worst case.
 */
function useCursorFollowsEvent(keys: readonly string[], cursor: number, setCursor: (cursor: number) => void) {
  const order = keys.join(" ");
  const followed = useRef<{ order: string; cursor: number; key: string | undefined }>({ order, cursor, key: undefined });
  useEffect(() => {
    const last = followed.current;
    if (cursor !== last.cursor) {
      followed.current = { order, cursor, key: keys[cursor] };
    } else if (order !== last.order) {
      last.order = order;
      const at = last.key === undefined ? -1 : keys.indexOf(last.key);
      if (at >= 0 && at !== cursor) {
        last.cursor = at;
        setCursor(at);
      }
    }
  }, [order, cursor]);
}
