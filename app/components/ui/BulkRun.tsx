/**
 * A bulk command in progress (bulk.machine.ts): one confirmation showing the count and total,
 * then a progress bar with done / failed / remaining, Cancel and Resume, and every failure with
 * its reason. `y` / `n` answer the confirmation, `c` cancels, `r` resumes. A job with a preview (a
 * file's lines, issue 34) shows it above the question; `e` moves to the next line with a problem.
 * The screen's data is read again once, when the job ends.
 */
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import { fromPromise } from "xstate";
import { bulkMachine, chunkRunnerOf, remainingOf, type BulkJob, type BulkPreview } from "../../machines/bulk.machine";
import { notifySuccess } from "../../lib/feedback";
import { storeJob } from "../../lib/jobs";
import { jobShown } from "../../lib/screen-cache";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { Overlay } from "./Overlay";

/**
 * `onClose(ran)`: `ran` is false when the confirmation was declined and nothing was sent.
 * `confirmed`: the operator already answered the one question (a preview that was its confirmation).
 */
export function BulkRun({ job, onClose, confirmed = false }: { job: BulkJob; onClose: (ran: boolean) => void; confirmed?: boolean }) {
  const runChunk = useRef(chunkRunnerOf(job));
  const actor = useActorRef(
    bulkMachine.provide({
      actors: {
        runChunk: fromPromise(({ input }) => runChunk.current(input.items, input.jobId)),
        recordJob: fromPromise(() => storeJob(job)),
      },
    }),
    { input: { items: job.items, chunkSize: job.chunkSize, chunksInFlight: job.chunksInFlight, stored: job.stored !== undefined, resumed: job.resumed } },
  );
  useEffect(() => {
    if (confirmed) actor.send({ type: "bulk.confirm" });
  }, []);
  const snapshot = useSelector(actor, (s) => s);
  const { items, done, failed } = snapshot.context;
  // Found settled otherwise by someone else (issue 29): neither the job's work nor its failure.
  const conflicts = failed.filter((failure) => failure.conflict).length;
  const counts = `${done.length} done, ${failed.length - conflicts} failed${conflicts > 0 ? `, ${conflicts} settled elsewhere` : ""}`;
  const remaining = remainingOf(snapshot.context);
  const finished = snapshot.hasTag("finished");
  const running = snapshot.hasTag("running");
  // Chunks answer JSON and read no screen again: the screen shows what the job did once it ends.
  const revalidate = useQuietRevalidate();
  const ended = finished || snapshot.hasTag("cancelled");
  useEffect(() => {
    if (ended) revalidate();
  }, [ended, revalidate]);
  // No desk is read ahead beside the job (screen-cache.ts, atIdleWithoutJobs).
  useEffect(() => (ended ? undefined : jobShown()), [ended]);

  const close = () => {
    // Closing mid-run is a cancel: the item in flight finishes, nothing further starts.
    if (running) actor.send({ type: "bulk.cancel" });
    if (finished) notifySuccess(`${job.title}: ${counts}`);
    onClose(!snapshot.hasTag("confirming"));
  };
  const preview = useRef<HTMLTableSectionElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "e" && job.preview && snapshot.hasTag("confirming")) {
      event.preventDefault();
      return nextProblem(preview.current);
    }
    const send = { y: "bulk.confirm", n: "bulk.decline", c: "bulk.cancel", r: "bulk.resume" } as const;
    const type = send[event.key as keyof typeof send];
    if (!type) return;
    event.preventDefault();
    actor.send({ type });
    if (type === "bulk.decline") onClose(false);
  };

  return (
    <Overlay label={job.title} onClose={close} className="dialog bulk">
      <div onKeyDown={onKeyDown}>
        <h2>{job.title}</h2>
        {snapshot.hasTag("held") ? (
          <>
            <p role="status">{snapshot.context.held}</p>
            <div className="dialog-buttons">
              <button type="button" autoFocus onClick={close}>
                Close
              </button>
            </div>
          </>
        ) : snapshot.hasTag("confirming") ? (
          <>
            {job.preview && <PreviewTable preview={job.preview} body={preview} />}
            <p>{job.question}</p>
            <div className="dialog-buttons">
              <button type="button" autoFocus onClick={() => actor.send({ type: "bulk.confirm" })}>
                <kbd>y</kbd> Yes
              </button>
              <button type="button" onClick={() => (actor.send({ type: "bulk.decline" }), onClose(false))}>
                <kbd>n</kbd> No
              </button>
            </div>
          </>
        ) : (
          <>
            <progress max={items.length} value={done.length + failed.length} aria-label="Progress" />
            <p className="bulk-counts" aria-live="polite">
              <span className="profit">{done.length} done</span> · <span className="loss">{failed.length - conflicts} failed</span> ·{" "}
              {conflicts > 0 && <span className="pending">{conflicts} settled elsewhere · </span>}
              <span className="pending">{remaining} remaining</span>
              {snapshot.hasTag("cancelled") && " · cancelled"}
            </p>
            {failed.length > 0 && (
              <ul className="bulk-failures" aria-label="Failures">
                {failed.map((failure) => (
                  <li key={failure.key}>
                    {failure.label}: <span className="loss">{failure.reason}</span>
                  </li>
                ))}
              </ul>
            )}
            <div className="dialog-buttons">
              {running && (
                <button type="button" autoFocus onClick={() => actor.send({ type: "bulk.cancel" })}>
                  <kbd>c</kbd> Cancel
                </button>
              )}
              {snapshot.hasTag("cancelled") && remaining > 0 && (
                <button type="button" autoFocus onClick={() => actor.send({ type: "bulk.resume" })}>
                  <kbd>r</kbd> Resume
                </button>
              )}
              {!running && (
                <button type="button" autoFocus={finished} onClick={close}>
                  Close
                </button>
              )}
            </div>
          </>
        )}
      </div>
    </Overlay>
  );
}

/** Focuses the first row with a problem after the focused one, from the top once past the last. */
function nextProblem(body: HTMLTableSectionElement | null) {
  const problems = [...(body?.querySelectorAll<HTMLTableRowElement>("tr[data-problem]") ?? [])];
  if (problems.length === 0) return;
  const after = problems.find((row) => document.activeElement instanceof Node && row.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_PRECEDING);
  const next = after ?? problems[0]!;
  next.focus();
  next.scrollIntoView({ block: "nearest" });
}

/** The lines of the preview: each with its cells and its status, a problem in red. */
function PreviewTable({ preview, body }: { preview: BulkPreview; body: RefObject<HTMLTableSectionElement> }) {
  return (
    <>
      <p className="bulk-summary" role="status">
        {preview.summary}
      </p>
      <div className="bulk-preview">
        <table className="table" aria-label="Preview">
          <thead>
            <tr>
              {preview.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody ref={body}>
            {preview.rows.map((row) => (
              <tr key={row.key} tabIndex={-1} data-problem={row.problem ? "" : undefined}>
                {row.cells.map((cell, index) => (
                  <td key={index}>{cell}</td>
                ))}
                <td className={row.problem ? "loss" : "profit"}>{row.problem ?? "ok"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
