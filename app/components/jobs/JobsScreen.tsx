/**
 * /jobs (issue 19): the bulk and settlement jobs with items still unanswered, after a reload or a
 * restart, in the list kit's table; `r` resumes the cursor job: the server checks the items that
 * were in flight, then only the items with no answer are sent.
 */
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import type { JobsData } from "../../lib/jobs.server";
import { notifyError } from "../../lib/feedback";
import { useActionRunner } from "../../lib/use-action-runner";
import type { BulkJob } from "../../machines/bulk.machine";
import { messageOf } from "../../machines/error-message";
import { BulkRun } from "../ui/BulkRun";
import { textColumn, timeColumn } from "../ui/columns";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";
import { resumableJob } from "./resume-client";

type JobRow = JobsData["jobs"][number];

const count = (id: string, header: string, value: (row: JobRow) => number): Column<JobRow> => ({
  ...textColumn(id, header, (row: JobRow) => String(value(row))),
  numeric: true,
});

const COLUMNS: Column<JobRow>[] = [
  timeColumn("created", "Confirmed", (row) => String(row.created), { seconds: true }),
  textColumn("operator", "Operator", (row) => row.operator),
  textColumn("title", "Job", (row) => row.title, { free: true }),
  count("total", "Items", (row) => row.total),
  count("done", "Done", (row) => row.done),
  count("refused", "Refused", (row) => row.refused),
  count("unknown", "Unknown", (row) => row.unknown),
  count("conflict", "Conflicts", (row) => row.conflict),
  count("in-flight", "In flight", (row) => row.inFlight),
  count("remaining", "Remaining", (row) => row.total - row.done - row.refused - row.unknown - row.conflict),
  {
    ...textColumn("result", "Result", (row: JobRow) => (row.hasResult ? "CSV (d)" : "")),
    cell: (row) => (row.hasResult ? <a href={resultHref(row.id)} download>CSV (d)</a> : null),
  },
];

/** A job from a file's result CSV (issue 34). */
const resultHref = (id: string) => `/resources/jobs/${encodeURIComponent(id)}/result`;

export function JobsScreen() {
  const { jobs } = useLoaderData<JobsData>();
  const { revalidate } = useRevalidator();
  const [running, setRunning] = useState<BulkJob | null>(null);
  const submit = useActionRunner("jobs-resume");
  const list = { items: jobs, total: jobs.length, page: 1, pageSize: Math.max(1, jobs.length) };
  const { table } = useListScreen<JobRow>({
    list,
    rowKey: (row) => row.id,
    pageHref: () => "?",
    pageKey: "jobs",
    active: !running,
    keys: {
      "jobs.result": (): boolean | void => {
        const row = table.rows[table.cursor];
        if (running || !row?.hasResult) return false;
        Object.assign(document.createElement("a"), { href: resultHref(row.id), download: "" }).click();
      },
      "jobs.resume": (): boolean | void => {
        const row = table.rows[table.cursor];
        if (running || !row) return false;
        resumableJob(row.id, submit).then(
          (job) => setRunning(job),
          (error: unknown) => notifyError(messageOf(error)),
        );
      },
    },
  });
  return (
    <section className="list-screen">
      <div className="toolbar">
        <span className="dim" aria-live="polite">
          {jobs.length} {jobs.length === 1 ? "job" : "jobs"} unfinished or from a file (7 days) · r resumes the cursor job (its maker only) · d its result CSV
        </span>
      </div>
      <Table label="Jobs" columns={COLUMNS} emptyText="No unfinished jobs" {...table} />
      {running && (
        <BulkRun
          job={running}
          confirmed
          onClose={() => {
            setRunning(null);
            revalidate();
          }}
        />
      )}
    </section>
  );
}
