/**
 * /approvals (issue 19, ADR 0009): the held four-eyes actions this operator may decide, in the
 * list kit's table; `a` approves and `r` rejects the cursor's row (never the maker's own), each
 * after one confirmation naming what will be performed (`y` confirms, `n` or Esc cancels). Below,
 * the super admin's thresholds, all off by default, each with one line on what it holds.
 */
import { useLoaderData } from "@remix-run/react";
import { Fragment, useState } from "react";
import type { ApprovalRow, ApprovalsData } from "../../lib/approvals.server";
import { announce } from "../../lib/feedback";
import { thresholdsSchema } from "../../lib/forms/four-eyes";
import { useActionRunner } from "../../lib/use-action-runner";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { textColumn, timeColumn } from "../ui/columns";
import { Switch, useRunnerForm } from "../ui/forms";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";

const COLUMNS: Column<ApprovalRow>[] = [
  timeColumn("created", "Requested", (row) => row.createdAt, { seconds: true }),
  textColumn("maker", "Maker", (row) => row.maker),
  textColumn("call", "Call", (row) => row.call),
  textColumn("summary", "Action", (row) => row.summary, { free: true }),
  textColumn("reason", "Held", (row) => row.reason),
  timeColumn("expires", "Expires", (row) => row.expiresAt),
  textColumn("you", "You", (row) => (row.mayApprove ? "may approve" : "yours: another operator approves")),
];

type Thresholds = ApprovalsData["thresholds"];
type ThresholdField = {
  name: "transferAbove" | "decisionAbove" | "jobItemsAbove" | "jobTotalAbove" | "accountCumulativeAbove" | "operatorCumulativeAbove" | "cumulativeHours";
  label: string;
  /** One line: what it holds. */
  hint: string;
  numeric?: true;
};

/** The thresholds, in the form's order (Every resettlement sits after the second); empty is off, except the window's hours. */
const FIELDS: readonly ThresholdField[] = [
  { name: "transferAbove", label: "Credit or debit above (empty: off)", hint: "Holds one manual credit or debit to a user or panel above this amount." },
  {
    name: "decisionAbove",
    label: "Approving a deposit or withdrawal above (empty: off)",
    hint: "Holds an approval that credits (USDT rate applied, bonuses and coupon included) or pays out above this.",
  },
  {
    name: "jobItemsAbove",
    label: "Job (settlement or bulk) of more items than (empty: off)",
    hint: "Holds a whole settlement or bulk job with more items than this.",
    numeric: true,
  },
  { name: "jobTotalAbove", label: "Job whose stakes or amounts total above (empty: off)", hint: "Holds a whole job whose stakes or amounts add up to more." },
  {
    name: "accountCumulativeAbove",
    label: "One account's total over the window above (empty: off)",
    hint: "Holds the credit, debit or approval that takes what one account moved unheld in the window above this; its reason names the earlier ones.",
  },
  {
    name: "operatorCumulativeAbove",
    label: "One operator's total over the window above (empty: off)",
    hint: "Holds the credit, debit or approval that takes what one operator moved unheld in the window above this; its reason names the earlier ones.",
  },
  { name: "cumulativeHours", label: "Window (hours)", hint: "How far back the two totals above reach, e.g. 24.", numeric: true },
];

const thresholdInput = ({ name, label, hint, numeric }: ThresholdField, thresholds: Thresholds) => (
  <Fragment key={name}>
    <label>
      {label}
      <input
        name={name}
        inputMode={numeric ? "numeric" : "decimal"}
        defaultValue={thresholds[name] ?? ""}
        autoComplete="off"
        aria-describedby={`${name}-hint`}
      />
    </label>
    <small id={`${name}-hint`} className="hint">
      {hint}
      {name === "cumulativeHours" ? "" : " Empty: off."}
    </small>
  </Fragment>
);

function ThresholdsForm({ thresholds }: Pick<ApprovalsData, "thresholds">) {
  const { busy, onSubmit } = useRunnerForm("thresholds", "/approvals", thresholdsSchema);
  return (
    <form method="post" className="form narrow" aria-label="Four-eyes thresholds" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="thresholds" />
      {FIELDS.slice(0, 2).map((field) => thresholdInput(field, thresholds))}
      <Switch label="Every resettlement" name="resettle" defaultChecked={thresholds.resettle} />
      <small className="hint">Holds every resettlement of a bet for a second operator. Off: none held.</small>
      {FIELDS.slice(2).map((field) => thresholdInput(field, thresholds))}
      <label>
        Expire after (hours)
        <input name="expiryHours" inputMode="numeric" defaultValue={thresholds.expiryHours} autoComplete="off" />
      </label>
      <small className="hint">How long a held action waits for a second operator before it closes as expired.</small>
      <button type="submit" disabled={busy}>
        Save thresholds
      </button>
    </form>
  );
}

type Intent = "approve" | "reject";
type Asking = { intent: Intent; row: ApprovalRow };

/** The one question before a decision: what approving performs (as the checker), or what rejecting closes. */
function ConfirmDecision({ asking, onConfirm, onCancel }: { asking: Asking; onConfirm: () => void; onCancel: () => void }) {
  const { intent, row } = asking;
  const question = intent === "approve" ? "Approve and perform this action?" : "Reject this held action?";
  return (
    <ConfirmDialog question={question} onConfirm={onConfirm} onCancel={onCancel}>
      <p>{row.summary}</p>
      <p className="dim">
        {intent === "approve"
          ? `Performs ${row.call} once, as you, with ${row.maker}'s exact request (held: ${row.reason}).`
          : `Closes ${row.maker}'s request unperformed (held: ${row.reason}).`}
      </p>
    </ConfirmDialog>
  );
}

export function ApprovalsScreen() {
  const { rows, thresholds, mayConfigure } = useLoaderData<ApprovalsData>();
  const submit = useActionRunner("approvals");
  const revalidate = useQuietRevalidate();
  const [asking, setAsking] = useState<Asking | null>(null);
  const decide = (intent: Intent): false | void => {
    const row = cursorRow;
    if (asking || !row || (intent === "approve" && !row.mayApprove)) return false;
    setAsking({ intent, row });
  };
  const perform = ({ intent, row }: Asking) => {
    setAsking(null);
    void submit("/approvals", { intent, id: row.id }).then((outcome) => {
      announce(outcome);
      revalidate();
    });
  };
  const { table, cursorRow } = useListScreen<ApprovalRow>({
    list: { items: rows, total: rows.length, page: 1, pageSize: Math.max(rows.length, 1) },
    rowKey: (row) => row.id,
    pageHref: () => "?",
    pageKey: "approvals",
    keys: {
      "approvals.approve": () => decide("approve"),
      "approvals.reject": () => decide("reject"),
    },
  });
  return (
    <section className="list-screen">
      <div className="toolbar">
        <span className="dim" aria-live="polite">
          {rows.length} waiting · <kbd>a</kbd> approve · <kbd>r</kbd> reject
        </span>
      </div>
      <Table label="Approvals" columns={COLUMNS} emptyText="Nothing waits for approval" {...table} />
      {mayConfigure && <ThresholdsForm thresholds={thresholds} />}
      {asking && <ConfirmDecision asking={asking} onConfirm={() => perform(asking)} onCancel={() => setAsking(null)} />}
    </section>
  );
}
