/**
 * /audit (ADR 0009): the console's record of every change made through it, newest first, in the
 * list kit's dense keyboard table. Filters are the address (`/` focuses the first); Enter opens a
 * row's request, answer and hash; the CSV keeps the filters.
 */
import { Form, useLoaderData, useNavigate } from "@remix-run/react";
import { useRef } from "react";
import type { AuditPageData, AuditRow } from "../../lib/audit-trail.server";
import { formatMoney } from "../../lib/format";
import { AUDIT_OUTCOMES } from "../../lib/store/schema";
import { textColumn, timeColumn } from "../ui/columns";
import { Pagination } from "../ui/Pagination";
import { useCommand } from "../ui/shell-context";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";

const OUTCOME_CLASS = { ok: "profit", refused: "loss", unknown: "pending", held: "dim" } as const;
/** Money where the entry has it (only money calls do). */
const moneyOrBlank = (id: string, header: string, amount: (row: AuditRow) => number | null): Column<AuditRow> => ({
  ...textColumn(id, header, (row: AuditRow) => {
    const value = amount(row);
    return value === null ? "" : formatMoney(value);
  }),
  numeric: true,
});

const COLUMNS: Column<AuditRow>[] = [
  textColumn("seq", "#", (row) => row.seq),
  timeColumn("at", "Time", (row) => row.at, { seconds: true }),
  textColumn("operator", "Operator", (row) => row.operator),
  textColumn("action", "Action", (row) => row.label),
  textColumn("account", "Account", (row) => row.accountName ?? row.accountId ?? ""),
  moneyOrBlank("amount", "Amount", (row) => row.amount),
  moneyOrBlank("before", "Before", (row) => row.balanceBefore),
  moneyOrBlank("after", "After", (row) => row.balanceAfter),
  textColumn("subject", "On", (row) => row.subject ?? ""),
  {
    id: "outcome",
    header: "Outcome",
    fit: "content",
    text: (row) => row.outcome,
    cell: (row) => <span className={OUTCOME_CLASS[row.outcome]}>{row.outcome}</span>,
  },
  textColumn("message", "Answer", (row) => [row.status, row.message].filter((part) => part !== null && part !== "").join(" "), { free: true }),
];

function EntryPanel({ row }: { row: AuditRow }) {
  return (
    <dl className="audit-entry">
      <dt>Call</dt>
      <dd>
        {row.call}
        {row.accountId && ` · account ${row.accountId}`}
      </dd>
      <dt>Session</dt>
      <dd>{row.session ?? "none"} · role {row.operatorRole ?? "?"} · {row.kind}</dd>
      {row.jobId && (
        <>
          <dt>Job</dt>
          <dd>{row.jobId}</dd>
        </>
      )}
      <dt>Request</dt>
      <dd>
        <pre>{JSON.stringify(row.request, null, 2)}</pre>
      </dd>
      <dt>Answer</dt>
      <dd>
        <pre>{JSON.stringify(row.answer, null, 2)}</pre>
      </dd>
      <dt>Hash</dt>
      <dd className="dim">{row.hash}</dd>
    </dl>
  );
}

export function AuditTrail() {
  const { query, list, more, failures } = useLoaderData<AuditPageData>();
  const navigate = useNavigate();
  const download = useCommand("audit.download");
  const searchBox = useRef<HTMLInputElement>(null);
  const { page: _page, ...filters } = query;
  const addressOf = (page: number) =>
    `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)), page: String(page) })}`;
  const { table, pagination } = useListScreen({ list, rowKey: (row) => row.seq, pageHref: addressOf, pageKey: addressOf(query.page), panels: true, searchBox });
  return (
    <section className="list-screen">
      <div className="toolbar">
        <Form method="get" className="filters" role="search" aria-label="Filter the audit trail" key={addressOf(1)}>
          <input ref={searchBox} name="account" aria-label="Account" placeholder="/ account (to or by)" defaultValue={query.account ?? ""} />
          <input name="operator" aria-label="Operator" placeholder="operator" defaultValue={query.operator ?? ""} />
          <input name="call" aria-label="Call" placeholder="call" defaultValue={query.call ?? ""} />
          <input name="job" aria-label="Job" placeholder="job id" defaultValue={query.job ?? ""} />
          <select name="outcome" aria-label="Outcome" defaultValue={query.outcome ?? ""}>
            <option value="">any outcome</option>
            {AUDIT_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {outcome}
              </option>
            ))}
          </select>
          <label>
            From <input type="date" name="from" defaultValue={query.from ?? ""} />
          </label>
          <label>
            To <input type="date" name="to" defaultValue={query.to ?? ""} />
          </label>
          <button type="submit">Filter</button>
          {Object.values(filters).some(Boolean) && (
            <button type="button" onClick={() => navigate("?")}>
              Clear
            </button>
          )}
        </Form>
        <span className="dim" aria-live="polite">
          {list.total}
          {more ? "+" : ""} entries
        </span>
        <a
          className="button"
          download
          href={`/resources/audit/download${addressOf(1)}`}
          onClick={(event) => {
            event.preventDefault();
            download();
          }}
        >
          Download CSV
        </a>
      </div>
      {failures > 0 && (
        <p role="alert" className="loss">
          {failures} {failures === 1 ? "action" : "actions"} could not be recorded since this console started: see its log.
        </p>
      )}
      <Table label="Audit Trail" columns={COLUMNS} renderPanel={(row) => <EntryPanel row={row} />} emptyText="No entries" {...table} />
      <Pagination {...pagination} />
    </section>
  );
}
