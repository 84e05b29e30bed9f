/**
 * /sessions (issue 30, ADR 0010): the open console sessions in the list kit's table (the
 * operator's own, everyone's for the super admin), this one marked; `e` ends the cursor session
 * and `E` all the operator's others, each after one confirmation (`y` confirms, `n` or Esc
 * cancels). Below, the super admin's address allowlist.
 */
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { ROLE_LABEL } from "../../lib/constants";
import { announce } from "../../lib/feedback";
import { ALLOWLIST_ROLES, allowlistField, allowlistSchema } from "../../lib/forms/sessions";
import type { SessionRowView, SessionsData } from "../../lib/sessions.server";
import { useActionRunner } from "../../lib/use-action-runner";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { textColumn, timeColumn } from "../ui/columns";
import { useRunnerForm } from "../ui/forms";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";

const COLUMNS: Column<SessionRowView>[] = [
  textColumn("current", "", (row) => (row.current ? "this session" : "")),
  textColumn("operator", "Operator", (row) => row.operator),
  textColumn("role", "Role", (row) => row.role),
  timeColumn("created", "Signed in", (row) => row.createdAt, { seconds: true }),
  timeColumn("seen", "Last seen", (row) => row.lastSeenAt),
  textColumn("address", "Address", (row) => row.address || "unknown"),
  textColumn("browser", "Browser", (row) => row.browser, { free: true }),
  textColumn("factor", "Factor", (row) => row.factor),
];

type Asking = { question: string; detail: string; values: Record<string, string> };

function AllowlistForm({ allowlist, address }: { allowlist: NonNullable<SessionsData["allowlist"]>; address: string }) {
  const { busy, onSubmit } = useRunnerForm("allowlist", "/sessions", allowlistSchema);
  return (
    <form method="post" className="form narrow" aria-label="Address allowlist" onSubmit={onSubmit}>
      <h2>Address allowlist</h2>
      <p className="dim">
        Addresses or CIDR ranges (IPv4 or IPv6), one per line, checked before a password is sent to the API; empty: anywhere. Your address: {address || "unknown"}.
      </p>
      <input type="hidden" name="intent" value="allowlist" />
      {ALLOWLIST_ROLES.map((role) => (
        <label key={role}>
          {`Ranges for ${ROLE_LABEL[role]}`}
          <textarea name={allowlistField(role)} defaultValue={allowlist[allowlistField(role)]} rows={3} autoComplete="off" spellCheck={false} />
        </label>
      ))}
      <button type="submit" disabled={busy}>
        Save allowlist
      </button>
    </form>
  );
}

export function SessionsScreen() {
  const { sessions, everyone, allowlist, address } = useLoaderData<SessionsData>();
  const submit = useActionRunner("sessions");
  const revalidate = useQuietRevalidate();
  const [asking, setAsking] = useState<Asking | null>(null);
  const perform = ({ values }: Asking) => {
    setAsking(null);
    void submit("/sessions", values).then((outcome) => {
      announce(outcome);
      revalidate();
    });
  };
  const { table, cursorRow } = useListScreen<SessionRowView>({
    list: { items: sessions, total: sessions.length, page: 1, pageSize: Math.max(sessions.length, 1) },
    rowKey: (row) => row.id,
    pageHref: () => "?",
    pageKey: "sessions",
    active: !asking,
    keys: {
      "sessions.end": (): false | void => {
        const row = cursorRow;
        if (asking || !row) return false;
        const whose = row.current ? "This session signs out." : `${row.operator}, ${row.address || "unknown address"}, ${row.browser}.`;
        setAsking({ question: row.current ? "End this session?" : "End the cursor session?", detail: whose, values: { intent: "end", id: row.id } });
      },
      // Asked whatever this list shows: a sign-in elsewhere since it loaded ends too.
      "sessions.end-others": (): false | void => {
        if (asking) return false;
        const detail = "Every other session of yours, on any browser, is signed out on its next request.";
        setAsking({ question: "End all your other sessions?", detail, values: { intent: "endOthers" } });
      },
    },
  });
  return (
    <section className="list-screen">
      <div className="toolbar">
        <span className="dim" aria-live="polite">
          {sessions.length} open {sessions.length === 1 ? "session" : "sessions"}
          {everyone ? " (everyone's)" : ""} · <kbd>e</kbd> end the cursor session · <kbd>E</kbd> end all your others
        </span>
      </div>
      <Table label="Sessions" columns={COLUMNS} emptyText="No open sessions" {...table} />
      {allowlist && <AllowlistForm allowlist={allowlist} address={address} />}
      {asking && (
        <ConfirmDialog question={asking.question} onConfirm={() => perform(asking)} onCancel={() => setAsking(null)}>
          <p>{asking.detail}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
