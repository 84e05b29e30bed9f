/**
 * Bet History (docs/product.md §2.9): one user's bets between two dates (default today in the console's
 * zone), tabs Sports, Casino and Games (`1`–`3`), total profit and balance cards, Download Bets
 * (the same query, as CSV) and pagination.
 */
import { Form, useLoaderData, useNavigate } from "@remix-run/react";
import { useRef } from "react";
import { BET_KIND, type BetKind, type CasinoBet, type GameBet, type SportsBet } from "../../../protocol/wire";
import { betTabCommandId } from "../../commands/bets";
import type { UserBetsData } from "../../lib/bets.server";
import { formatMoney } from "../../lib/format";
import { moneyColumn, timeColumn } from "../ui/columns";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";
import { oddsHistoryColumn, sideOf } from "./PendingBets";

type Row = SportsBet | CasinoBet | GameBet;

export const BET_TABS = [
  { kind: BET_KIND.sports, label: "Sports" },
  { kind: BET_KIND.casino, label: "Casino" },
  { kind: BET_KIND.games, label: "Games" },
] as const;

/** docs/product.md §4: SUCCESS green, FAIL red, anything else plain. */
const statusCell = (status: string) => <span className={status === "SUCCESS" ? "profit" : status === "FAIL" ? "loss" : undefined}>{status}</span>;
const profitLoss = <R extends { profit: number; loss: number }>() => moneyColumn<R>("pl", "Profit/Loss", (bet) => bet.profit - bet.loss);

const sportsColumns = (oddsHistoryUrl: string): Column<SportsBet>[] => [
  { id: "sport", header: "Sport", width: "70px", cell: (bet) => bet.sportName },
  { id: "id", header: "Bet ID", width: "70px", cell: (bet) => bet._id },
  { id: "market", header: "Market", cell: (bet) => `${bet.event} · ${bet.market}` },
  { id: "type", header: "Market Type", width: "90px", cell: (bet) => bet.type },
  { id: "runner", header: "Runner Name", cell: (bet) => bet.runner },
  { id: "side", header: "Side", width: "50px", cell: (bet) => sideOf(bet) },
  moneyColumn("stake", "Stake", (bet) => bet.amount, { width: "90px" }),
  moneyColumn("exposure", "Exp", (bet) => bet.exposure, { width: "90px" }),
  { id: "price", header: "Price", numeric: true, width: "60px", cell: (bet) => bet.x },
  { id: "odds", header: "Odds", numeric: true, width: "60px", cell: (bet) => bet.odds },
  { id: "status", header: "Status", width: "90px", cell: (bet) => statusCell(bet.status) },
  profitLoss<SportsBet>(),
  oddsHistoryColumn(oddsHistoryUrl),
  timeColumn("placed", "Placed Date", (bet) => bet.createdAt),
];
/** The casino and games layouts: Bet ID, two game fields, Round ID, Price, Placed Date, Status, Profit/Loss. */
const roundColumns = <R extends CasinoBet | GameBet>(fields: ReadonlyArray<[id: string, header: string, cell: (bet: R) => string]>): Column<R>[] => [
  { id: "id", header: "Bet ID", width: "70px", cell: (bet) => bet._id },
  ...fields.map(([id, header, cell]): Column<R> => ({ id, header, cell })),
  { id: "round", header: "Round ID", cell: (bet) => bet.roundId },
  moneyColumn("price", "Price", (bet) => bet.amount),
  timeColumn("placed", "Placed Date", (bet) => bet.createdAt),
  { id: "status", header: "Status", width: "90px", cell: (bet) => statusCell(bet.status) },
  profitLoss<R>(),
];
const CASINO_COLUMNS = roundColumns<CasinoBet>([
  ["provider", "Provider Code", (bet) => bet.providerCode],
  ["game", "Game Code", (bet) => bet.gameCode],
]);
const GAME_COLUMNS = roundColumns<GameBet>([
  ["runner", "Runner", (bet) => bet.runnerName],
  ["game", "Game ID", (bet) => bet.gameId],
]);
const columnsOf = (type: BetKind, oddsHistoryUrl: string) =>
  (type === BET_KIND.sports ? sportsColumns(oddsHistoryUrl) : type === BET_KIND.casino ? CASINO_COLUMNS : GAME_COLUMNS) as unknown as Column<Row>[];

export function BetHistoryScreen() {
  const { query, list, profit, oddsHistoryUrl } = useLoaderData<UserBetsData>();
  const navigate = useNavigate();
  const queryOf = (change: { type?: BetKind; page?: number }) => {
    const { user, username, from, to } = query;
    const next = { user, ...(username ? { username } : {}), type: String(change.type ?? query.type), from, to };
    return new URLSearchParams({ ...next, ...(change.page && change.page > 1 ? { page: String(change.page) } : {}) });
  };
  const tab = (type: BetKind) => () => navigate(`?${queryOf({ type })}`);
  const downloadLink = useRef<HTMLAnchorElement>(null);
  const { table, pagination } = useListScreen<Row>({
    list,
    rowKey: (bet) => bet._id,
    pageHref: (page) => `?${queryOf({ page })}`,
    pageKey: `?${queryOf({ page: query.page })}`,
    keys: {
      ...Object.fromEntries(BET_TABS.map(({ kind }) => [betTabCommandId(kind), tab(kind)])),
      "bet-history.download": () => downloadLink.current?.click(),
    },
  });
  const label = BET_TABS[query.type].label;

  return (
    <section className="list-screen">
      <h2 className="screen-subtitle">{query.username ?? `User ${query.user}`}</h2>
      <div className="toolbar">
        <Form method="get" className="filters" aria-label="Dates" key={`${query.from}-${query.to}`}>
          <input type="hidden" name="user" value={query.user} />
          {query.username && <input type="hidden" name="username" value={query.username} />}
          <input type="hidden" name="type" value={query.type} />
          <label>
            From <input type="date" name="from" defaultValue={query.from} />
          </label>
          <label>
            To <input type="date" name="to" defaultValue={query.to} />
          </label>
          <button type="submit">Show</button>
        </Form>
        <nav className="tabs" aria-label="Kind">
          {BET_TABS.map(({ kind, label: text }, index) => (
            <button key={kind} type="button" aria-current={kind === query.type ? "page" : undefined} onClick={tab(kind)}>
              <kbd>{index + 1}</kbd> {text}
            </button>
          ))}
        </nav>
        <a ref={downloadLink} className="button" download href={`/resources/bets/download?${queryOf({})}`}>
          Download Bets
        </a>
      </div>
      <div className="cards">
        <div className="card" aria-label="Total profit">
          <span className="dim">Total Profit</span>
          <strong className={profit.profit >= 0 ? "profit" : "loss"}>{formatMoney(profit.profit)}</strong>
        </div>
        <div className="card" aria-label="Balance">
          <span className="dim">Balance</span>
          <strong>{formatMoney(profit.balance)}</strong>
        </div>
      </div>
      <Table label={`${label} bets`} columns={columnsOf(query.type, oddsHistoryUrl)} emptyText={`No ${label.toLowerCase()} bets`} {...table} />
      <Pagination {...pagination} />
    </section>
  );
}
