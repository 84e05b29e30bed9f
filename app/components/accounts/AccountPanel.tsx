/**
 * The inline panel under a users/panels row (docs/product.md §2.5, §2.6): deposit, withdraw, change password
 * and permissions forms, and the login logs. Each form checks itself with the action's own schema
 * before posting, and shows the spec's toast for the answer.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { GAME_FLAGS, type UserRow } from "../../../protocol/wire";
import { isPartnerField, type AccountMode } from "../../lib/account-list";
import type { AccountDetails } from "../../lib/accounts.server";
import { REMARK_MAX } from "../../lib/constants";
import type { Outcome } from "../../lib/feedback";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { accountActionInput, accountActionSchema, newRequestId } from "../../lib/forms/account-actions";
import { textColumn, timeColumn } from "../ui/columns";
import { SchemaForm, Switch, type FieldSpec } from "../ui/forms";
import { RecordTable } from "../ui/RecordTable";

type PanelProps = {
  row: UserRow;
  mode: AccountMode;
  /** Flags the operator holds: it cannot switch on any other (docs/product.md §4). */
  operatorFlags: Record<string, boolean>;
  /** Open with the login logs showing (the row's Login Logs button). */
  logs?: boolean;
  onClose: () => void;
};

export function AccountPanel({ row, mode, operatorFlags, logs = false, onClose }: PanelProps) {
  const [showLogs, setShowLogs] = useState(logs);
  // The username goes along as the audit trail's label of the account (issue 32).
  const hidden = { user: row._id, username: row.username, isPartner: isPartnerField(mode) };
  return (
    <div
      className="account-panel"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="panel-head">
        <strong>{row.username}</strong>
        <button type="button" onClick={() => setShowLogs((shown) => !shown)} aria-expanded={showLogs}>
          Login Logs
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="panel-forms">
        <ActionForm title="Deposit" intent="deposit" hidden={hidden} fields={MONEY_FIELDS} autoFocus={!logs} />
        <ActionForm title="Withdraw" intent="withdraw" hidden={hidden} fields={MONEY_FIELDS} />
        <ActionForm title="Change Password" intent="password" hidden={hidden} fields={PASSWORD_FIELDS} />
        <PermissionsForm row={row} mode={mode} hidden={hidden} operatorFlags={operatorFlags} />
      </div>
      {showLogs && <LoginLogs row={row} mode={mode} onClose={() => setShowLogs(false)} />}
    </div>
  );
}

const MONEY_FIELDS: FieldSpec[] = [
  { name: "amount", label: "Amount", inputMode: "decimal" },
  { name: "remark", label: "Remark", maxLength: REMARK_MAX },
];
const PASSWORD_FIELDS: FieldSpec[] = [
  { name: "password", label: "Password", type: "password" },
  { name: "confirmPassword", label: "Confirm Password", type: "password" },
];

/** One row-panel form: posts to the list route's action; money forms get a fresh requestId after each success. */
function ActionForm({
  title,
  intent,
  hidden,
  fields,
  autoFocus,
}: {
  title: string;
  intent: "deposit" | "withdraw" | "password";
  hidden: Record<string, string>;
  fields: readonly FieldSpec[];
  autoFocus?: boolean;
}) {
  const [requestId, setRequestId] = useState(newRequestId);
  return (
    <SchemaForm
      label={title}
      heading
      className="panel-form"
      schema={accountActionSchema}
      toInput={accountActionInput}
      hidden={{ intent, requestId, ...hidden }}
      fields={fields}
      required={intent === "password" ? undefined : ["amount"]}
      submitLabel={title}
      autoFocus={autoFocus}
      onSuccess={() => setRequestId(newRequestId())}
    />
  );
}

function PermissionsForm({
  row,
  mode,
  hidden,
  operatorFlags,
}: {
  row: UserRow;
  mode: AccountMode;
  hidden: Record<string, string>;
  operatorFlags: Record<string, boolean>;
}) {
  const details = useFetcher<AccountDetails>();
  const save = useFetcher<Outcome>();
  useAnnouncedOutcome(save.data);
  const [state, setState] = useState<Record<string, boolean> | null>(null);
  useEffect(() => {
    // Once per row: the fetcher object changes identity on every state change.
    details.load(`/resources/accounts/${mode}/${row._id}?view=permissions`);
  }, [mode, row._id]);
  useEffect(() => {
    if (details.data?.view !== "permissions") return;
    const { settings } = details.data;
    setState({ login: settings.login, bet: settings.bet, ...settings.permissions });
  }, [details.data]);

  if (!state) return <p className="panel-form dim">Loading permissions…</p>;
  const toggle = (name: string) => setState((current) => current && { ...current, [name]: !current[name] });
  return (
    <save.Form method="post" className="panel-form" aria-label="Permissions">
      <h3>Permissions</h3>
      <input type="hidden" name="intent" value="permissions" />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Switch label="Login" name="login" checked={state.login ?? false} onToggle={() => toggle("login")} />
      <Switch label="Bet" name="bet" checked={state.bet ?? false} onToggle={() => toggle("bet")} />
      {GAME_FLAGS.map((flag) => (
        <Switch
          key={flag}
          label={flag}
          name="flag"
          value={flag}
          checked={state[flag] ?? false}
          disabled={!operatorFlags[flag] && !state[flag]}
          onToggle={() => toggle(flag)}
        />
      ))}
      <button type="submit" disabled={save.state !== "idle"}>
        Save
      </button>
    </save.Form>
  );
}

type LogEntry = Extract<AccountDetails, { view: "logs" }>["logs"][number];

const LOG_COLUMNS = [
  {
    id: "ip",
    header: "IP",
    cell: (entry: LogEntry) => (
      <a href={`https://ipinfo.io/${encodeURIComponent(entry.ip)}`} target="_blank" rel="noreferrer">
        {entry.ip}
      </a>
    ),
  },
  textColumn("device", "Device", (entry: LogEntry) => entry.device),
  textColumn("browser", "Browser", (entry: LogEntry) => entry.browser),
  timeColumn("time", "Time", (entry: LogEntry) => entry.createdAt),
];

function LoginLogs({ row, mode, onClose }: { row: UserRow; mode: AccountMode; onClose: () => void }) {
  const logs = useFetcher<AccountDetails>();
  useEffect(() => {
    // Once per row, as for the permissions.
    logs.load(`/resources/accounts/${mode}/${row._id}?view=logs`);
  }, [mode, row._id]);
  const entries = logs.data?.view === "logs" ? logs.data.logs : null;
  return (
    <section className="login-logs" aria-label="Login logs">
      <div className="panel-head">
        <h3>Login Logs</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="login-logs-scroll">
        {entries === null ? (
          <p className="dim">Loading…</p>
        ) : (
          <RecordTable label="Sign-ins" columns={LOG_COLUMNS} rows={entries} rowKey={(_, index) => String(index)} emptyText="No sign-ins yet" />
        )}
      </div>
    </section>
  );
}
