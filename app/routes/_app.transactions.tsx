/** docs/product.md §2.8: an account's Deposit History or Withdrawal History. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { TransactionRow } from "../../protocol/wire";
import { moneyColumn, timeColumn } from "~/components/ui/columns";
import { Pagination } from "~/components/ui/Pagination";
import { Table, type Column } from "~/components/ui/Table";
import { useListScreen } from "~/components/ui/use-list-screen";
import { DEPOSIT_TYPE_LABEL, TRANSACTION_STATUS_LABEL } from "~/lib/constants";
import { loadHistory } from "~/lib/requests.server";
import { screenHandle } from "~/lib/screens";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("transactions");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadHistory(request, context);

const STATUS_CLASS = ["pending", "profit", "loss"] as const;

function columnsFor(deposits: boolean): Column<TransactionRow>[] {
  return [
    { id: "id", header: "ID", width: "90px", cell: (row) => row._id },
    moneyColumn("amount", "Amount", (row) => row.amount),
    ...(deposits
      ? [{ id: "type", header: "Type", width: "80px", cell: (row: TransactionRow) => (row.type === undefined ? "" : DEPOSIT_TYPE_LABEL[row.type]) }]
      : []),
    {
      id: "status",
      header: "Status",
      width: "100px",
      cell: (row) => <span className={STATUS_CLASS[row.status]}>{TRANSACTION_STATUS_LABEL[row.status]}</span>,
    },
    timeColumn("createdAt", "Created Time", (row) => row.createdAt),
  ];
}

export default function Transactions() {
  const { query, list } = useLoaderData<typeof loader>();
  const addressOf = (page: number) => `?${new URLSearchParams({ ...query, username: query.username ?? "", page: String(page) })}`;
  const { table, pagination } = useListScreen({
    list,
    rowKey: (row) => row._id,
    pageHref: addressOf,
    pageKey: addressOf(query.page),
  });
  const deposits = query.type === "deposits";
  const title = deposits ? "Deposit History" : "Withdrawal History";
  return (
    <section className="list-screen" aria-labelledby="history-title">
      <h2 id="history-title">
        {title}
        {query.username && <span className="dim"> · {query.username}</span>}
      </h2>
      <Table label={title} columns={columnsFor(deposits)} emptyText={deposits ? "No deposits yet" : "No withdrawals yet"} {...table} />
      <Pagination {...pagination} />
    </section>
  );
}
