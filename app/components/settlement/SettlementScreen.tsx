/**
 * The settlement workspace (issue 18): the markets awaiting settlement, oldest closing first, with
 * the feed's result and the house result of settling as reported. Enter previews the cursor market
 * (its whole checked set, frozen); `y` settles the preview (after checking no bet arrived since),
 * else the selection or the cursor market as reported, asking once; `c` corrects the result, `v`
 * voids, `l` voids late bets. Against an API without `/market-results` the rows carry no result
 * and Enter (or `y`) asks it first.
 */
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import type { SportsBet } from "../../../protocol/wire";
import { notifyError } from "../../lib/feedback";
import { formatDateTime, formatMoney } from "../../lib/format";
import { partialText } from "../../lib/list";
import type { QueueRow, SettlementData } from "../../lib/settlement.server";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import type { BulkJob } from "../../machines/bulk.machine";
import type { MarketResult } from "../../machines/settlement.machine";
import { messageOf } from "../../machines/error-message";
import { ResultStep } from "../bets/SettleMarketDialog";
import { BulkRun } from "../ui/BulkRun";
import { moneyColumn } from "../ui/columns";
import { Overlay } from "../ui/Overlay";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";
import { MarketPreview, type Preview } from "./MarketPreview";
import { VoidLateBetsDialog } from "./VoidLateBetsDialog";
import { marketJob, marketSet, reportedMarketsJob, reportedOf, scopeOf } from "./workspace-client";

const rowKey = (row: QueueRow) => `${row.eventId}/${row.marketId}`;
const signed = (amount: number) => `${amount > 0 ? "+" : amount < 0 ? "−" : ""}${formatMoney(Math.abs(amount))}`;

const COLUMNS: Column<QueueRow>[] = [
  { id: "event", header: "Event", cell: (row) => row.event },
  { id: "market", header: "Market", cell: (row) => row.market },
  { id: "type", header: "Type", width: "80px", cell: (row) => row.type },
  { id: "result", header: "Feed's result", cell: (row) => row.result ?? <span className="dim">none: Enter asks</span> },
  { id: "closed", header: "Closed at", width: "150px", cell: (row) => (row.closedAt ? formatDateTime(row.closedAt, true) : "—") },
  { id: "pending", header: "Pending", numeric: true, width: "70px", cell: (row) => row.pending },
  moneyColumn("stake", "Stake", (row) => row.stake, { width: "100px" }),
  moneyColumn("exposure", "Exposure", (row) => row.exposure, { width: "100px" }),
  {
    id: "house",
    header: "House if as reported",
    numeric: true,
    width: "150px",
    cell: (row) =>
      row.houseResult === null ? <span className="dim">—</span> : <span className={row.houseResult >= 0 ? "profit" : "loss"}>{signed(row.houseResult)}</span>,
  },
];

type Asking = { row: QueueRow; bets: SportsBet[] };
type Running = { job: BulkJob; confirmed: boolean };

export function SettlementScreen() {
  const { query, list, totals, coverage, source } = useLoaderData<SettlementData>();
  const [params, setParams] = useSearchParams();
  const revalidate = useQuietRevalidate();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const late = params.get("late") === "1" && params.get("eventId") ? { eventId: params.get("eventId")!, marketId: params.get("marketId") ?? undefined } : null;

  const addressOf = (page: number) => `?${new URLSearchParams({ ...(query.sport ? { sport: query.sport } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;

  /** Reads the market's set, or says why it cannot be settled. */
  const withSet = (row: QueueRow, then: (bets: SportsBet[]) => void) => {
    marketSet(scopeOf(row)).then(then, (error: unknown) => notifyError(messageOf(error)));
  };
  const open = (row: QueueRow, bets: SportsBet[], result: MarketResult, reported: MarketResult | null) =>
    setPreview({ row, bets, result, reported, arrived: [] });
  const openPreview = (row: QueueRow) =>
    withSet(row, (bets) => {
      const reported = reportedOf(row);
      if (reported) open(row, bets, reported, null);
      else setAsking({ row, bets });
    });

  /** `y` on an open preview: the frozen set, after saying so if bets arrived since it was read. */
  const settlePreview = (shown: Preview) =>
    withSet(shown.row, (fresh) => {
      const previewed = new Set(shown.bets.map((bet) => bet._id));
      const arrived = fresh.filter((bet) => !previewed.has(bet._id));
      if (arrived.length > 0 && shown.arrived.length === 0) return setPreview({ ...shown, arrived });
      const how = shown.result.kind === "abandoned" ? "voided" : shown.reported ? "corrected" : shown.row.result === null ? "by the result given" : "as reported";
      setRunning({ job: marketJob(shown.row, shown.bets, shown.result, how), confirmed: true });
    });

  const settleSelection = (rows: QueueRow[]) => {
    const unresolved = rows.filter((row) => !reportedOf(row));
    if (unresolved.length > 0) return notifyError(`No result reported for ${unresolved.map((row) => `${row.event} · ${row.market}`).join(", ")}: preview it with Enter`);
    Promise.all(rows.map((row) => marketSet(scopeOf(row)).then((bets) => ({ row, bets, result: reportedOf(row)! })))).then(
      (markets) => setRunning({ job: reportedMarketsJob(markets), confirmed: false }),
      (error: unknown) => notifyError(messageOf(error)),
    );
  };

  const dialogOpen = Boolean(running || asking || late);
  const { table, pagination, cursorRow, selected, clearSelection } = useListScreen<QueueRow>({
    list,
    rowKey,
    pageHref: addressOf,
    pageKey: addressOf(query.page),
    active: !dialogOpen,
    refreshMs: 10_000,
    keys: {
      "list.open": (): boolean | void => {
        if (dialogOpen || !cursorRow) return false;
        openPreview(cursorRow);
      },
      "list.close": (): boolean | void => {
        if (preview) setPreview(null);
        else if (selected.size > 0) clearSelection();
        else return false;
      },
      "settlement.settle": (): boolean | void => {
        if (dialogOpen) return false;
        if (preview) return settlePreview(preview);
        const chosen = list.items.filter((row) => selected.has(rowKey(row)));
        if (chosen.length > 0) return settleSelection(chosen);
        if (!cursorRow) return false;
        const reported = reportedOf(cursorRow);
        if (!reported) return openPreview(cursorRow);
        withSet(cursorRow, (bets) => setRunning({ job: marketJob(cursorRow, bets, reported, "as reported"), confirmed: false }));
      },
      "settlement.correct": (): boolean | void => {
        const row = preview?.row ?? cursorRow;
        if (dialogOpen || !row) return false;
        withSet(row, (bets) => setAsking({ row, bets }));
      },
      "settlement.void": (): boolean | void => {
        const row = preview?.row ?? cursorRow;
        if (dialogOpen || !row) return false;
        withSet(row, (bets) => setRunning({ job: marketJob(row, bets, { kind: "abandoned" }, "voided"), confirmed: false }));
      },
      "settlement.include": (): boolean | void => {
        if (dialogOpen || !preview || preview.arrived.length === 0) return false;
        setPreview({ ...preview, bets: [...preview.bets, ...preview.arrived], arrived: [] });
      },
      "settlement.void-late": (): boolean | void => {
        const row = preview?.row ?? cursorRow;
        if (dialogOpen || !row) return false;
        setParams((current) => {
          current.set("late", "1");
          current.set("eventId", row.eventId);
          current.set("marketId", row.marketId);
          return current;
        });
      },
    },
  });

  const closeLate = () =>
    setParams(
      (current) => {
        for (const name of ["late", "eventId", "marketId"]) current.delete(name);
        return current;
      },
      { replace: true },
    );

  return (
    <section className="list-screen">
      <div className="toolbar">
        <span className="dim" aria-live="polite">
          {totals.markets} {totals.markets === 1 ? "market" : "markets"} awaiting settlement · {totals.pending} bets · stake {formatMoney(totals.stake)} ·
          exposure {formatMoney(totals.exposure)}
          {coverage && ` (of the ${partialText(coverage)} read)`}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </span>
        <span className="dim">
          {source === "queue" ? "The operator's API reports no results: Enter asks each market's. " : ""}Enter preview · y settle · c correct · v void · l
          late bets
        </span>
      </div>
      <Table
        label="Markets awaiting settlement"
        columns={COLUMNS}
        emptyText="No closed market awaits settlement"
        {...table}
        expandedKey={preview ? rowKey(preview.row) : null}
        renderPanel={() => preview && <MarketPreview preview={preview} />}
        onClosePanel={() => setPreview(null)}
      />
      <Pagination {...pagination} />
      {asking && (
        <Overlay label="Result" onClose={() => setAsking(null)} className="dialog settle-market">
          <h2>
            {asking.row.event} · {asking.row.market}
          </h2>
          {asking.row.result !== null && <p className="dim">The feed reported: {asking.row.result}</p>}
          <ResultStep
            bets={asking.bets}
            onBack={() => setAsking(null)}
            onResult={(result) => {
              setAsking(null);
              open(asking.row, asking.bets, result, reportedOf(asking.row));
            }}
          />
        </Overlay>
      )}
      {late && !running && (
        <VoidLateBetsDialog
          key={`${late.eventId}/${late.marketId ?? ""}`}
          eventId={late.eventId}
          marketId={late.marketId}
          closedAt={list.items.find((row) => row.eventId === late.eventId && row.marketId === late.marketId)?.closedAt ?? null}
          onClose={closeLate}
          onVoid={(job) => {
            closeLate();
            setRunning({ job, confirmed: true });
          }}
        />
      )}
      {running && (
        <BulkRun
          job={running.job}
          confirmed={running.confirmed}
          onClose={(ran) => {
            setRunning(null);
            if (ran) {
              setPreview(null);
              clearSelection();
            }
            revalidate();
          }}
        />
      )}
    </section>
  );
}
