/**
 * /approvals (issue 19, ADR 0009): the held four-eyes actions this operator may decide, in the
 * list kit's table; `a` approves and `r` rejects the cursor's row (never the maker's own). Below,
 * the super admin's thresholds, all off by default.
 */
import { useFetcher, useLoaderData } from "@remix-run/react";
import type { ApprovalRow, ApprovalsData } from "../../lib/approvals.server";
import { announce, type Outcome } from "../../lib/feedback";
import { thresholdsSchema } from "../../lib/forms/four-eyes";
import { useActionRunner } from "../../lib/use-action-runner";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { textColumn, timeColumn } from "../ui/columns";
import { checkBeforeSend } from "../ui/forms";
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

function ThresholdsForm({ thresholds }: Pick<ApprovalsData, "thresholds">) {
  const fetcher = useFetcher<Outcome>();
  useAnnouncedOutcome(fetcher.data);
  return (
    <fetcher.Form method="post" className="form narrow" aria-label="Four-eyes thresholds" onSubmit={checkBeforeSend(thresholdsSchema)}>
      <input type="hidden" name="intent" value="thresholds" />
      <label>
        Credit or debit above (empty: off)
        <input name="transferAbove" inputMode="decimal" defaultValue={thresholds.transferAbove ?? ""} autoComplete="off" />
      </label>
      <label>
        Approving a deposit or withdrawal above (empty: off)
        <input name="decisionAbove" inputMode="decimal" defaultValue={thresholds.decisionAbove ?? ""} autoComplete="off" />
      </label>
      <label>
        <input type="checkbox" name="resettle" defaultChecked={thresholds.resettle} /> Every resettlement
      </label>
      <label>
        Expire after (hours)
        <input name="expiryHours" inputMode="numeric" defaultValue={thresholds.expiryHours} autoComplete="off" />
      </label>
      <button type="submit" disabled={fetcher.state !== "idle"}>
        Save thresholds
      </button>
    </fetcher.Form>
  );
}

export function ApprovalsScreen() {
  const { rows, thresholds, mayConfigure } = useLoaderData<ApprovalsData>();
  const submit = useActionRunner("approvals");
  const revalidate = useQuietRevalidate();
  const decide = (intent: "approve" | "reject"): false | void => {
    const row = cursorRow;
    if (!row || (intent === "approve" && !row.mayApprove)) return false;
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
    </section>
  );
}
