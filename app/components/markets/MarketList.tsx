/**
 * Spec §2.13: a heading per sport, each event a link `team A v team B`, `(Live)` in play, the
 * green-book indicator, live events first (the platform's order). `j`/`k` move, Enter opens.
 */
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import type { SportsEvent } from "../../../protocol/wire";
import { marketDetailPath } from "../../commands/markets";
import { MARKET_REFRESH_MS } from "../../lib/constants";
import type { MarketListData } from "../../lib/markets.server";
import { useListScreen } from "../ui/use-list-screen";

type Row = SportsEvent & { sportName: string };

export function MarketListScreen() {
  const { sports, green } = useLoaderData<MarketListData>();
  const navigate = useNavigate();
  const rows: Row[] = sports.flatMap(({ sport, events }) => events.map((event) => ({ ...event, sportName: sport })));
  const hrefOf = (row: Row) => marketDetailPath(row.sportName, row.eventId);
  const { cursorRow }: { cursorRow: Row | undefined } = useListScreen<Row>({
    list: { items: rows, total: rows.length, page: 1, pageSize: Math.max(1, rows.length) },
    rowKey: (row) => row.eventId,
    pageHref: () => "",
    pageKey: "markets",
    refreshMs: MARKET_REFRESH_MS,
    keys: { "list.open": (): boolean | void => (cursorRow ? navigate(hrefOf(cursorRow)) : false) },
  });
  return (
    <div className="market-list">
      {sports.map(({ sport, events }) => (
        <section key={sport} aria-labelledby={`sport-${sport}`}>
          <h2 id={`sport-${sport}`} className="market-sport">
            {sport}
          </h2>
          {events.length === 0 ? (
            <p className="dim">No events</p>
          ) : (
            <ul className="market-events">
              {events.map((event) => (
                <li key={event.eventId} data-cursor={cursorRow?.eventId === event.eventId ? "" : undefined}>
                  <Link to={hrefOf({ ...event, sportName: sport })}>
                    {event.teamA} v {event.teamB}
                  </Link>
                  {event.inplay && <span className="profit"> (Live)</span>}
                  {green[event.eventId] && <span className="profit market-green"> ● green book</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
