/**
 * Deposits and withdrawals (docs/product.md §2.11): tabs Pending, Success, Fail (`1`–`3`), a dense table,
 * and on Pending `a` (success) and `r` (fail) for the cursor row, confirmed in a dialog driven by
 * the approval machine. The list refreshes every 10 seconds.
 */
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useMemo, useRef } from "react";
import { fromPromise } from "xstate";
import type { DepositRow, WithdrawRow } from "../../../protocol/wire";
import { tabCommandId } from "../../commands/requests";
import { DEPOSIT_TYPE_LABEL, REQUEST_REFRESH_MS, REQUEST_TABS } from "../../lib/constants";
import { announce } from "../../lib/feedback";
import { decisionFields, decisionProblem } from "../../lib/forms/decision";
import type { RequestsData } from "../../lib/requests.server";
import { useActionRunner } from "../../lib/use-action-runner";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { approvalMachine, type Decision, type DecisionInput, type PendingRequest } from "../../machines/approval.machine";
import { actionsColumn, moneyColumn, textColumn, timeColumn } from "../ui/columns";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";
import { ApprovalDialog } from "./ApprovalDialog";

type Row = DepositRow | WithdrawRow;

const pendingOf = (kind: RequestsData["kind"], row: Row): PendingRequest => ({
  id: row._id,
  kind,
  username: row.username,
  amount: row.amount,
  type: "type" in row ? row.type : undefined,
  couponCode: "couponCode" in row ? row.couponCode : undefined,
});

function columnsFor(kind: RequestsData["kind"], pending: boolean, decide: (row: Row, decision: Decision) => void) {
  const time = timeColumn<Row>("time", "Time", (row) => row.createdAt, { seconds: true });
  const common: Column<Row>[] = [
    textColumn("username", "User Name", (row) => row.username, { free: true }),
    moneyColumn("amount", "Amount", (row) => row.amount),
  ];
  const deposit = <T,>(cell: (row: DepositRow) => T) => (row: Row) => cell(row as DepositRow);
  const withdraw = <T,>(cell: (row: WithdrawRow) => T) => (row: Row) => cell(row as WithdrawRow);
  const columns: Column<Row>[] =
    kind === "deposit"
      ? [
          ...common,
          moneyColumn("bonus", "Bonus", (row) => (row as DepositRow).bonus),
          moneyColumn("totalBonus", "Total Bonus", (row) => row.totalBonus),
          textColumn("coupon", "Coupon Code", deposit((row) => row.couponCode ?? "")),
          textColumn("type", "Type", deposit((row) => DEPOSIT_TYPE_LABEL[row.type])),
          textColumn("utr", "UTR", deposit((row) => row.utr), { free: true }),
          {
            id: "image",
            header: "Image",
            fit: "content",
            text: deposit((row) => (row.image ? "View" : "")),
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
          moneyColumn("totalBonus", "Total Bonus", (row) => row.totalBonus),
          textColumn("holder", "Bank Holder", withdraw((row) => row.bank.holder), { free: true }),
          textColumn("bank", "Bank", withdraw((row) => row.bank.bank), { free: true }),
          textColumn("accNo", "Account No", withdraw((row) => row.bank.accNo)),
          textColumn("ifsc", "IFSC", withdraw((row) => row.bank.ifsc)),
          textColumn("branch", "Branch", withdraw((row) => row.bank.branch), { free: true }),
          textColumn("remark", "Remark", withdraw((row) => row.remark ?? ""), { free: true }),
          time,
        ];
  if (!pending) return columns;
  return [
    ...columns,
    actionsColumn<Row>(
      "actions",
      "Actions",
      [
        { label: "Success", run: (row) => decide(row, 1) },
        { label: "Fail", run: (row) => decide(row, 2) },
      ],
    ),
  ];
}

export function RequestListScreen() {
  const { kind, query, list, bonusLimits, coupons } = useLoaderData<RequestsData>();
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  const submitAction = useActionRunner(`decide-${kind}`);
  const pending = query.status === 0;

  // The approval machine's call goes through this route's action. The machine is created once,
  // so its effects read the latest router functions through a ref.
  const router = useRef({ submitAction, revalidate });
  router.current = { submitAction, revalidate };
  const approval = useActorRef(
    approvalMachine.provide({
      actors: {
        decide: fromPromise<void, DecisionInput>(async ({ input }) => {
          const outcome = await router.current.submitAction(`/${kind}s`, decisionFields(input));
          announce(outcome);
          if (!outcome.ok) throw new Error(outcome.message);
        }),
      },
      actions: { reload: () => router.current.revalidate() },
    }),
    { input: { check: decisionProblem } },
  );
  const snapshot = useSelector(approval, (s) => s);
  const dialogOpen = snapshot.hasTag("open");

  const decide = (row: Row, decision: Decision) => approval.send({ type: "approval.start", request: pendingOf(kind, row), decision });
  const columns = useMemo(() => columnsFor(kind, pending, decide), [kind, pending]);

  const addressOf = (status: number, page = 1) => `?${new URLSearchParams({ status: String(status), ...(page > 1 ? { page: String(page) } : {}) })}`;
  const decideCursor = (decision: Decision) => {
    if (!pending || !cursorRow) return false;
    decide(cursorRow, decision);
  };
  const { table, pagination, cursorRow } = useListScreen<Row>({
    list,
    rowKey: (row) => row._id,
    pageHref: (page) => addressOf(query.status, page),
    pageKey: addressOf(query.status, query.page),
    active: !dialogOpen,
    // docs/product.md §2.11: refresh every 10 seconds, but never under an open confirmation.
    refreshMs: REQUEST_REFRESH_MS,
    keys: {
      [tabCommandId(0)]: () => navigate(addressOf(0)),
      [tabCommandId(1)]: () => navigate(addressOf(1)),
      [tabCommandId(2)]: () => navigate(addressOf(2)),
      "requests.approve": () => decideCursor(1),
      "requests.reject": () => decideCursor(2),
    },
  });

  // `?open=<id>` puts the cursor on that request (palette `#`); `&decide=1|2` also opens its
  // confirmation, once: the parameter is dropped so a refresh does not ask again.
  const [params, setParams] = useSearchParams();
  const openId = params.get("open");
  const decideParam = params.get("decide");
  useEffect(() => {
    const row = list.items.find((item) => item._id === openId);
    if (!row || (decideParam !== "1" && decideParam !== "2")) return;
    decide(row, decideParam === "1" ? 1 : 2);
    setParams((current) => {
      current.delete("decide");
      return current;
    }, { replace: true });
    // Only a new address asks; list reloads alone do not.
  }, [openId, decideParam]);
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
              onClick={() => navigate(addressOf(tab.status))}
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
        columns={columns}
        emptyText={`No ${REQUEST_TABS[query.status]!.label.toLowerCase()} ${noun}`}
        {...table}
      />
      <Pagination {...pagination} />
      {dialogOpen && snapshot.context.request && (
        <ApprovalDialog
          request={snapshot.context.request}
          decision={snapshot.context.decision!}
          form={snapshot.context.form}
          bonusLimits={bonusLimits}
          coupons={coupons}
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
