/**
 * Pending Sport Bets (docs/product.md §2.15): the queue, oldest first, filtered by event, market, user and
 * sport, with the filtered set's totals per market. `s` success, `f` fail, `v` abandoned act on
 * the selection (`x`, Shift+↓/↑, `*`) or else the cursor row: one confirmation with the counts
 * and money, then progress in chunks (bulk runner), cancellable and resumable, each failure
 * reported. `?settle=1` opens Settle market… (at the result when `eventId` and `marketId` are
 * given: the palette's Settle market… and the market screen's `s`), `?void=1` Void bets of
 * event… (at its bets to void when `eventId` is given), `?open=<id>&outcome=1|2|3` the
 * confirmation for that bet. A relayed `bet-settled` reloads the queue at once; until the
 * operator's API has delivered one (an extension), the queue polls every 10 s, as the spec does.
 */
import { Await, Form, useLoaderData, useNavigate, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { REALTIME_EVENTS, SETTLEMENT, SPORTS, type SettlementCode, type SportsBet } from "../../../protocol/wire";
import type { PendingBetsData, PendingTotalsView } from "../../lib/bets.server";
import { MARKET_REFRESH_MS } from "../../lib/constants";
import { notifyError } from "../../lib/feedback";
import { formatMoney } from "../../lib/format";
import { scopeProblem } from "../../lib/forms/settlement";
import { partialText } from "../../lib/list";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { useDelivered, useRealtimeEvent } from "../../lib/use-realtime";
import type { BulkJob } from "../../machines/bulk.machine";
import { BulkRun } from "../ui/BulkRun";
import { actionsColumn, moneyColumn, timeColumn } from "../ui/columns";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";
import { useCommand } from "../ui/shell-context";
import { useListScreen } from "../ui/use-list-screen";
import { VOID_LATE_BETS } from "../../commands/settlement";
import { SettleMarketDialog } from "./SettleMarketDialog";
import { sameOutcomeJob, settleJob } from "./settle-client";

/** The Odds History address of a bet from the configured template, or null when none is set. */
export const oddsHistoryHref = (template: string, bet: SportsBet): string | null =>
  template
    ? template
        .replaceAll("{sport}", encodeURIComponent(bet.sportName))
        .replaceAll("{eventId}", encodeURIComponent(bet.eventId))
        .replaceAll("{marketId}", encodeURIComponent(bet.marketId ?? ""))
        .replaceAll("{createdAt}", encodeURIComponent(bet.createdAt))
    : null;

/** docs/product.md §2.15: opens the configured odds-history site for the bet's sport and event at its placing time. */
export const oddsHistoryColumn = (template: string): Column<SportsBet> => ({
  id: "odds-history",
  header: "Odds History",
  width: "90px",
  cell: (bet) => {
    const href = oddsHistoryHref(template, bet);
    return href ? (
      <a href={href} target="_blank" rel="noreferrer">
        Odds History
      </a>
    ) : null;
  },
});

/** The parameters that open and close this screen's dialogs (`?settle=1`, `?void=1`, `?open=&outcome=`) over the same list. */
const DIALOG_PARAMS = ["settle", "void", "open", "outcome"];
const withoutDialogs = (url: URL) => {
  const params = new URLSearchParams(url.search);
  for (const name of DIALOG_PARAMS) params.delete(name);
  params.sort();
  return `${url.pathname}?${params}`;
};

/**
 * Opening or closing a dialog reads nothing again: the list is the same, and the job the dialog
 * starts reloads it when it ends. Closing Settle market… at its result used to read the whole
 * queue again beside the job's first chunk (on an API without the queue's filters, every page).
 */
export const pendingShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  formMethod === undefined && currentUrl.href !== nextUrl.href && withoutDialogs(currentUrl) === withoutDialogs(nextUrl) ? false : defaultShouldRevalidate;

function columnsFor(oddsHistoryUrl: string, settle: (bet: SportsBet, status: SettlementCode) => void): Column<SportsBet>[] {
  return [
    { id: "sport", header: "Sport", width: "70px", cell: (bet) => bet.sportName },
    { id: "id", header: "Bet ID", width: "70px", cell: (bet) => bet._id },
    { id: "user", header: "User", width: "100px", cell: (bet) => bet.username },
    { id: "event", header: "Event", cell: (bet) => bet.event },
    { id: "market", header: "Market", cell: (bet) => bet.market },
    { id: "type", header: "Market Type", width: "90px", cell: (bet) => bet.type },
    { id: "runner", header: "Runner Name", cell: (bet) => bet.runner },
    { id: "side", header: "Side", width: "50px", cell: (bet) => <span className={bet.isBack ? "back" : "lay"}>{sideOf(bet)}</span> },
    moneyColumn("stake", "Stake", (bet) => bet.amount, { width: "90px" }),
    moneyColumn("exposure", "Exp", (bet) => bet.exposure, { width: "90px" }),
    { id: "price", header: "Price", numeric: true, width: "60px", cell: (bet) => bet.x },
    { id: "odds", header: "Odds", numeric: true, width: "60px", cell: (bet) => bet.odds },
    actionsColumn<SportsBet>(
      "actions",
      "Settle",
      [
        { label: "Success", title: "s", run: (bet) => settle(bet, SETTLEMENT.success) },
        { label: "Fail", title: "f", run: (bet) => settle(bet, SETTLEMENT.fail) },
        { label: "Abandoned", title: "v", run: (bet) => settle(bet, SETTLEMENT.abandoned) },
      ],
      { width: "190px" },
    ),
    oddsHistoryColumn(oddsHistoryUrl),
    timeColumn("placed", "Placed Date", (bet) => bet.createdAt),
  ];
}

/** Back and lay; a fancy line's yes and no. */
export const sideOf = (bet: Pick<SportsBet, "type" | "isBack">) =>
  bet.type === "fancy" ? (bet.isBack ? "Yes" : "No") : bet.isBack ? "Back" : "Lay";

const OUTCOMES = [SETTLEMENT.success, SETTLEMENT.fail, SETTLEMENT.abandoned] as const;

/**
 * What the totals show: at once when the loader has them, else (an API without the totals
 * extension, counting in the background) `counting` until they arrive, never a part as the whole.
 */
function Counted({
  totals,
  counting = null,
  failed = null,
  children,
}: {
  totals: PendingTotalsView | Promise<PendingTotalsView>;
  counting?: ReactNode;
  failed?: ReactNode;
  children: (totals: PendingTotalsView) => ReactNode;
}) {
  if (!(totals instanceof Promise)) return <>{children(totals)}</>;
  return (
    <Suspense fallback={counting}>
      <Await resolve={totals} errorElement={failed}>
        {children}
      </Await>
    </Suspense>
  );
}

/**
 * Totals by market: the rows are drawn only while open (the whole queue may hold thousands of
 * markets). Opened before the page hydrated (Enter on the summary works natively), its toggle event
 * reached no React listener: the element's own state is read once mounted.
 */
function MarketTotals({ markets }: { markets: PendingTotalsView["markets"] }) {
  const details = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(details.current!.open), []);
  return (
    <details ref={details} className="market-totals" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Totals by market ({markets.length})</summary>
      <table aria-label="Totals by market">
        <thead>
          <tr>
            <th>Event</th>
            <th>Market</th>
            <th className="num">Bets</th>
            <th className="num">Stake</th>
            <th className="num">Exposure</th>
          </tr>
        </thead>
        <tbody>
          {open && markets.map((market) => (
            <tr key={`${market.eventId}-${market.marketId}`}>
              <td>{market.event}</td>
              <td>{market.market}</td>
              <td className="num">{market.count}</td>
              <td className="num">{formatMoney(market.stake)}</td>
              <td className="num">{formatMoney(market.exposure)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export function PendingBetsScreen() {
  const { query, list, totals, coverage, oddsHistoryUrl } = useLoaderData<PendingBetsData>();
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  const [params, setParams] = useSearchParams();
  const [job, setJob] = useState<BulkJob | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const voidLate = useCommand(VOID_LATE_BETS);
  const settleParam = params.get("settle") === "1" ? "market" : params.get("void") === "1" ? "void-event" : null;
  const dialogOpen = job !== null || settleParam !== null;
  // Never under an open confirmation: closing a batch reloads anyway.
  useRealtimeEvent(REALTIME_EVENTS.betSettled, () => {
    if (!dialogOpen) revalidate();
  });
  const betSettledDelivered = useDelivered(REALTIME_EVENTS.betSettled);

  // The list's event and market filters are the job's scope: a bet of another one refuses the job.
  const scope = { eventId: query.eventId, marketId: query.marketId };
  const start = (bets: readonly SportsBet[], status: SettlementCode) => {
    if (bets.length === 0) return;
    const problem = scopeProblem(bets, scope);
    if (problem) notifyError(problem);
    else setJob(sameOutcomeJob(bets, status, scope));
  };
  const columns = useMemo(() => columnsFor(oddsHistoryUrl, (bet, status) => start([bet], status)), [oddsHistoryUrl]);

  const filters = { eventId: query.eventId, marketId: query.marketId, user: query.user, sport: query.sport };
  const addressOf = (page: number) => {
    const search = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
    if (page > 1) search.set("page", String(page));
    return `?${search}`;
  };
  const onTarget = (status: SettlementCode) => () => {
    const chosen = selected.size > 0 ? list.items.filter((bet) => selected.has(bet._id)) : cursorRow ? [cursorRow] : [];
    if (chosen.length === 0) return false;
    start(chosen, status);
  };
  const { table, pagination, cursorRow, selected, clearSelection } = useListScreen<SportsBet>({
    list,
    rowKey: (bet) => bet._id,
    pageHref: addressOf,
    pageKey: addressOf(query.page),
    searchBox,
    refreshMs: betSettledDelivered ? undefined : MARKET_REFRESH_MS,
    active: !dialogOpen,
    keys: {
      "bets.success": onTarget(SETTLEMENT.success),
      "bets.fail": onTarget(SETTLEMENT.fail),
      "bets.abandon": onTarget(SETTLEMENT.abandoned),
      // Answered inside the confirmation; here there is nothing to confirm.
      "bets.confirm": () => false,
      "bets.decline": () => false,
      // Void late bets… on the event (and market) the queue is filtered to, else the palette asks the event.
      "settlement.void-late": () => voidLate(query.eventId ? { event: query.eventId, ...(query.marketId ? { market: query.marketId } : {}) } : {}),
    },
  });

  // `?open=<id>&outcome=` (Settle bet…): that bet's confirmation, once.
  const outcomeParam = Number(params.get("outcome"));
  const openId = params.get("open");
  useEffect(() => {
    const bet = list.items.find((item) => item._id === openId);
    const status = OUTCOMES.find((code) => code === outcomeParam);
    if (!bet || !status) return;
    start([bet], status);
    setParams((current) => {
      current.delete("outcome");
      return current;
    }, { replace: true });
  }, [openId, outcomeParam]);

  const closeSettleDialog = () =>
    setParams((current) => {
      current.delete("settle");
      current.delete("void");
      return current;
    }, { replace: true });

  return (
    <section className="list-screen">
      <div className="toolbar">
        <Form method="get" className="filters" role="search" aria-label="Filter pending bets" key={addressOf(1)}>
          <input ref={searchBox} name="eventId" aria-label="Event ID" placeholder="/ event id" defaultValue={query.eventId ?? ""} />
          <input name="marketId" aria-label="Market ID" placeholder="market id" defaultValue={query.marketId ?? ""} />
          <input name="user" aria-label="User ID" placeholder="user id" defaultValue={query.user ?? ""} />
          <select name="sport" aria-label="Sport" defaultValue={query.sport ?? ""}>
            <option value="">all sports</option>
            {SPORTS.map((sport) => (
              <option key={sport} value={sport}>
                {sport}
              </option>
            ))}
          </select>
          <button type="submit">Filter</button>
          {Object.values(filters).some(Boolean) && (
            <button type="button" onClick={() => navigate("?")}>
              Clear
            </button>
          )}
        </Form>
        <span className="dim" aria-live="polite">
          {list.total} pending{coverage && ` in the ${partialText(coverage)} bets read`}
          <Counted totals={totals} counting=" · stake and exposure counting…" failed=" · stake and exposure could not be counted">
            {(totals) =>
              ` · stake ${formatMoney(totals.all.stake)} · exposure ${formatMoney(totals.all.exposure)}` +
              (totals.coverage.complete ? "" : ` (${partialText(totals.coverage)} bets)`)
            }
          </Counted>
          {selected.size > 0 && ` · ${selected.size} selected`}
        </span>
        <span className="dim">s success · f fail · v abandoned</span>
      </div>
      <Counted totals={totals}>{(totals) => totals.markets.length > 1 && <MarketTotals markets={totals.markets} />}</Counted>
      <Table label="Pending Sport Bets" columns={columns} emptyText="No pending bets" {...table} />
      <Pagination {...pagination} />
      {settleParam && !job && (
        <SettleMarketDialog
          // The palette may name another event or market while the dialog is open: start over on it.
          key={`${settleParam}-${query.eventId ?? ""}-${query.marketId ?? ""}`}
          mode={settleParam}
          eventId={query.eventId}
          marketId={query.marketId}
          onClose={closeSettleDialog}
          onSettle={(request) => {
            closeSettleDialog();
            setJob(settleJob(request.title, request.settlements, request.question, request.scope));
          }}
        />
      )}
      {job && (
        <BulkRun
          job={job}
          onClose={(ran) => {
            setJob(null);
            // A batch that ran is over: its selection goes with it (declined, it stays to be settled otherwise).
            if (ran) clearSelection();
            revalidate();
          }}
        />
      )}
    </section>
  );
}
