/** Spec §2.8: an account's Deposit History or Withdrawal History. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import type { TransactionRow } from "../../protocol/wire";
import { Pagination } from "~/components/ui/Pagination";
import { Table, type Column } from "~/components/ui/Table";
import { DEPOSIT_TYPE_LABEL, TRANSACTION_STATUS_LABEL } from "~/lib/constants";
import { formatDateTime, formatMoney } from "~/lib/format";
import type { PageHandle } from "~/lib/page";
import { loadHistory } from "~/lib/requests.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle: PageHandle = { title: "Transactions" };

export const loader = ({ request, context }: LoaderFunctionArgs) => loadHistory(request, context);

const STATUS_CLASS = ["pending", "profit", "loss"] as const;

function columnsFor(deposits: boolean): Column<TransactionRow>[] {
  return [
    { id: "id", header: "ID", width: "90px", cell: (row) => row._id },
    { id: "amount", header: "Amount", numeric: true, width: "120px", cell: (row) => formatMoney(row.amount) },
    ...(deposits
      ? [{ id: "type", header: "Type", width: "80px", cell: (row: TransactionRow) => (row.type === undefined ? "" : DEPOSIT_TYPE_LABEL[row.type]) }]
      : []),
    {
      id: "status",
      header: "Status",
      width: "100px",
      cell: (row) => <span className={STATUS_CLASS[row.status]}>{TRANSACTION_STATUS_LABEL[row.status]}</span>,
    },
    { id: "createdAt", header: "Created Time", width: "170px", cell: (row) => formatDateTime(row.createdAt) },
  ];
}

export default function Transactions() {
  const { query, list } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const deposits = query.type === "deposits";
  const title = deposits ? "Deposit History" : "Withdrawal History";
  const goTo = (page: number) =>
    navigate(`?${new URLSearchParams({ ...query, username: query.username ?? "", page: String(page) })}`);
  return (
    <section className="list-screen" aria-labelledby="history-title">
      <h2 id="history-title">
        {title}
        {query.username && <span className="dim"> · {query.username}</span>}
      </h2>
      <Table
        label={title}
        rows={list.items}
        columns={columnsFor(deposits)}
        rowKey={(row) => row._id}
        cursor={cursor}
        onCursorChange={setCursor}
        selected={selected}
        onSelectionChange={setSelected}
        keyboard
        emptyText={deposits ? "No deposits yet" : "No withdrawals yet"}
      />
      <Pagination page={list.page} pageCount={Math.max(1, Math.ceil(list.total / list.pageSize))} onPage={goTo} keyboard />
    </section>
  );
}
