/**
 * Deposits and withdrawals (spec §2.11): tabs Pending, Success, Fail (`1`–`3`), a dense table,
 * and on Pending `a` (success) and `r` (fail) for the cursor row, confirmed in a dialog driven by
 * the approval machine. The list refreshes every 10 seconds.
 */
import { useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { fromPromise } from "xstate";
import type { DepositRow, WithdrawRow } from "../../../protocol/wire";
import { DEPOSIT_TYPE_LABEL, REQUEST_REFRESH_MS, REQUEST_TABS } from "../../lib/constants";
import { announce, type Outcome } from "../../lib/feedback";
import { formatDateTime, formatMoney } from "../../lib/format";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import type { RequestsData } from "../../lib/requests.server";
import {
  approvalMachine,
  decisionFields,
  type Decision,
  type DecisionInput,
  type PendingRequest,
} from "../../machines/approval.machine";
import { ApprovalDialog } from "./ApprovalDialog";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";

type Row = DepositRow | WithdrawRow;

const pendingOf = (kind: RequestsData["kind"], row: Row): PendingRequest => ({
  id: row._id,
  kind,
  username: row.username,
  amount: row.amount,
  type: "type" in row ? row.type : undefined,
});

function columnsFor(kind: RequestsData["kind"], pending: boolean, decide: (row: Row, decision: Decision) => void) {
  const time: Column<Row> = { id: "time", header: "Time", width: "170px", cell: (row) => formatDateTime(row.createdAt, true) };
  const common: Column<Row>[] = [
    { id: "username", header: "User Name", cell: (row) => row.username },
    { id: "amount", header: "Amount", numeric: true, width: "110px", cell: (row) => formatMoney(row.amount) },
  ];
  const deposit = (cell: (row: DepositRow) => React.ReactNode) => (row: Row) => cell(row as DepositRow);
  const withdraw = (cell: (row: WithdrawRow) => React.ReactNode) => (row: Row) => cell(row as WithdrawRow);
  const columns: Column<Row>[] =
    kind === "deposit"
      ? [
          ...common,
          { id: "bonus", header: "Bonus", numeric: true, width: "90px", cell: deposit((row) => formatMoney(row.bonus)) },
          { id: "totalBonus", header: "Total Bonus", numeric: true, width: "100px", cell: deposit((row) => formatMoney(row.totalBonus)) },
          { id: "coupon", header: "Coupon Code", width: "110px", cell: deposit((row) => row.couponCode ?? "") },
          { id: "type", header: "Type", width: "60px", cell: deposit((row) => DEPOSIT_TYPE_LABEL[row.type]) },
          { id: "utr", header: "UTR", cell: deposit((row) => row.utr) },
          {
            id: "image",
            header: "Image",
            width: "60px",
            cell: deposit((row) =>
              row.image ? (
                <a href={`/resources/uploads/${encodeURIComponent(row.image.split("/").pop()!)}`} target="_blank" rel="noreferrer">
                  View
                </a>
              ) : null,
            ),
          },
          time,
        ]
      : [
          ...common,
          { id: "totalBonus", header: "Total Bonus", numeric: true, width: "100px", cell: withdraw((row) => formatMoney(row.totalBonus)) },
          { id: "holder", header: "Bank Holder", cell: withdraw((row) => row.bank.holder) },
          { id: "bank", header: "Bank", cell: withdraw((row) => row.bank.bank) },
          { id: "accNo", header: "Account No", cell: withdraw((row) => row.bank.accNo) },
          { id: "ifsc", header: "IFSC", width: "110px", cell: withdraw((row) => row.bank.ifsc) },
          { id: "branch", header: "Branch", cell: withdraw((row) => row.bank.branch) },
          { id: "remark", header: "Remark", cell: withdraw((row) => row.remark ?? "") },
          time,
        ];
  if (!pending) return columns;
  return [
    ...columns,
    {
      id: "actions",
      header: "Actions",
      width: "130px",
      cell: (row: Row) => (
        <span className="row-actions">
          <button type="button" onClick={() => decide(row, 1)}>
            Success
          </button>
          <button type="button" onClick={() => decide(row, 2)}>
            Fail
          </button>
        </span>
      ),
    },
  ];
}

export function RequestListScreen() {
  const { kind, query, list } = useLoaderData<RequestsData>();
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  const fetcher = useFetcher<Outcome>();
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const pending = query.status === 0;
  const waiting = useRef<((outcome: Outcome) => void) | null>(null);

  // The approval machine's call goes through this route's action; the fetcher answers it. The
  // machine is created once, so its effects read the latest router functions through a ref.
  const router = useRef({ submit: fetcher.submit, revalidate });
  router.current = { submit: fetcher.submit, revalidate };
  const approval = useActorRef(
    approvalMachine.provide({
      actors: {
        decide: fromPromise<void, DecisionInput>(
          ({ input }) =>
            new Promise<void>((resolve, reject) => {
              waiting.current = (outcome) => {
                announce(outcome);
                if (outcome.ok) resolve();
                else reject(new Error(outcome.message));
              };
              router.current.submit(decisionFields(input), { method: "post" });
            }),
        ),
      },
      actions: { reload: () => router.current.revalidate() },
    }),
  );
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && waiting.current) {
      const settle = waiting.current;
      waiting.current = null;
      settle(fetcher.data);
    }
  }, [fetcher.state, fetcher.data]);
  const snapshot = useSelector(approval, (s) => s);
  const dialogOpen = snapshot.hasTag("open");

  const decide = (row: Row, decision: Decision) => approval.send({ type: "approval.start", request: pendingOf(kind, row), decision });
  const columns = useMemo(() => columnsFor(kind, pending, decide), [kind, pending]);

  // Spec §2.11: refresh every 10 seconds, but never under an open confirmation.
  useEffect(() => {
    const timer = setInterval(() => {
      if (!approval.getSnapshot().hasTag("open") && document.visibilityState === "visible") router.current.revalidate();
    }, REQUEST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [approval]);

  // `1`–`3` switch tabs; on Pending `a` and `r` decide the cursor row.
  const latest = useRef({ list, cursor, pending });
  latest.current = { list, cursor, pending };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || target?.closest("input, textarea, select, [role=dialog]")) return;
      const tab = REQUEST_TABS[Number(event.key) - 1];
      const row = latest.current.list.items[latest.current.cursor];
      if (tab) navigate(`?status=${tab.status}`);
      else if (latest.current.pending && row && (event.key === "a" || event.key === "r")) decide(row, event.key === "a" ? 1 : 2);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [navigate]);

  useEffect(() => setCursor((current) => Math.min(current, Math.max(0, list.items.length - 1))), [list.items.length]);

  // `?open=<id>` puts the cursor on that request (palette `#`); `&decide=1|2` also opens its
  // confirmation, once: the parameter is dropped so a refresh does not ask again.
  const [params, setParams] = useSearchParams();
  const openId = params.get("open");
  const decideParam = params.get("decide");
  useEffect(() => {
    const index = openId ? list.items.findIndex((row) => row._id === openId) : -1;
    if (index < 0) return;
    setCursor(index);
    if (decideParam === "1" || decideParam === "2") {
      decide(list.items[index]!, decideParam === "1" ? 1 : 2);
      setParams((current) => {
        current.delete("decide");
        return current;
      }, { replace: true });
    }
    // Only a new address asks; list reloads alone do not.
  }, [openId, decideParam]);
  const pageCount = Math.max(1, Math.ceil(list.total / list.pageSize));
  const noun = kind === "deposit" ? "deposits" : "withdrawals";

  return (
    <section className="list-screen">
      <div className="toolbar">
        <nav className="tabs" aria-label="Status">
          {REQUEST_TABS.map((tab, index) => (
            <button
              key={tab.status}
              type="button"
              aria-current={tab.status === query.status ? "page" : undefined}
              onClick={() => navigate(`?status=${tab.status}`)}
            >
              <kbd>{index + 1}</kbd> {tab.label}
            </button>
          ))}
        </nav>
        <span className="dim">
          {list.total} {REQUEST_TABS[query.status]!.label.toLowerCase()} {noun}
        </span>
        {pending && <span className="dim">a success · r fail</span>}
      </div>
      <Table
        label={kind === "deposit" ? "Deposits" : "Withdrawals"}
        rows={list.items}
        columns={columns}
        rowKey={(row) => row._id}
        cursor={cursor}
        onCursorChange={setCursor}
        selected={selected}
        onSelectionChange={setSelected}
        keyboard={!dialogOpen}
        emptyText={`No ${REQUEST_TABS[query.status]!.label.toLowerCase()} ${noun}`}
      />
      <Pagination
        page={list.page}
        pageCount={pageCount}
        onPage={(page) => navigate(`?status=${query.status}&page=${page}`)}
        keyboard={!dialogOpen}
      />
      {dialogOpen && snapshot.context.request && (
        <ApprovalDialog
          request={snapshot.context.request}
          decision={snapshot.context.decision!}
          form={snapshot.context.form}
          error={snapshot.context.error}
          busy={snapshot.hasTag("busy")}
          onEdit={(field, value) => approval.send({ type: "approval.edit", field, value })}
          onConfirm={() => approval.send({ type: "approval.confirm" })}
          onCancel={() => approval.send({ type: "approval.cancel" })}
        />
      )}
    </section>
  );
}
