/**
 * The inline panel under a users/panels row (spec §2.5, §2.6): deposit, withdraw, change password
 * and permissions forms, and the login logs. Each form checks itself with the action's own schema
 * before posting, and shows the spec's toast for the answer.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { GAME_FLAGS, type UserRow } from "../../../protocol/wire";
import type { AccountDetails, AccountMode } from "../../lib/accounts.server";
import { REMARK_MAX } from "../../lib/constants";
import { notifyError, type Outcome } from "../../lib/feedback";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { accountActionInput, accountActionSchema, newRequestId } from "../../lib/forms/account-actions";
import { firstIssue } from "../../lib/forms/first-issue";
import { formatDateTime } from "../../lib/format";

type PanelProps = {
  row: UserRow;
  mode: AccountMode;
  /** Flags the operator holds: it cannot switch on any other (spec §4). */
  operatorFlags: Record<string, boolean>;
  /** Open with the login logs showing (the row's Login Logs button). */
  logs?: boolean;
  onClose: () => void;
};

export function AccountPanel({ row, mode, operatorFlags, logs = false, onClose }: PanelProps) {
  const [showLogs, setShowLogs] = useState(logs);
  const hidden = { user: row._id, isPartner: String(mode === "partners") };
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
        <ActionForm title="Deposit" intent="deposit" hidden={hidden} autoFocus={!logs}>
          {(values, set) => <MoneyFields values={values} set={set} />}
        </ActionForm>
        <ActionForm title="Withdraw" intent="withdraw" hidden={hidden}>
          {(values, set) => <MoneyFields values={values} set={set} />}
        </ActionForm>
        <ActionForm title="Change Password" intent="password" hidden={hidden} required={["password", "confirmPassword"]}>
          {(values, set) => (
            <>
              <Field label="Password" name="password" type="password" values={values} set={set} />
              <Field label="Confirm Password" name="confirmPassword" type="password" values={values} set={set} />
            </>
          )}
        </ActionForm>
        <PermissionsForm row={row} mode={mode} hidden={hidden} operatorFlags={operatorFlags} />
      </div>
      {showLogs && <LoginLogs row={row} mode={mode} onClose={() => setShowLogs(false)} />}
    </div>
  );
}

type Values = Record<string, string>;
type Setter = (name: string, value: string) => void;

/** One row-panel form: posts to the list route's action; money forms get a fresh requestId after each success. */
function ActionForm({
  title,
  intent,
  hidden,
  children,
  required = ["amount"],
  autoFocus,
}: {
  title: string;
  intent: "deposit" | "withdraw" | "password";
  hidden: Record<string, string>;
  children: (values: Values, set: Setter) => ReactNode;
  required?: string[];
  autoFocus?: boolean;
}) {
  const fetcher = useFetcher<Outcome>();
  const [values, setValues] = useState<Values>({});
  const [requestId, setRequestId] = useState(newRequestId);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (autoFocus) form.current?.querySelector<HTMLInputElement>("input:not([type=hidden])")?.focus();
  }, [autoFocus]);
  useAnnouncedOutcome(fetcher.data, () => {
    setValues({});
    setRequestId(newRequestId());
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = accountActionSchema.safeParse(accountActionInput(new FormData(event.currentTarget)));
    if (!parsed.success) {
      event.preventDefault();
      notifyError(firstIssue(parsed.error));
    }
  };
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form ref={form} method="post" className="panel-form" onSubmit={submit} aria-label={title}>
      <h3>{title}</h3>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="requestId" value={requestId} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children(values, (name, value) => setValues((current) => ({ ...current, [name]: value })))}
      <button type="submit" disabled={busy || required.some((name) => !values[name])}>
        {busy ? "…" : title}
      </button>
    </fetcher.Form>
  );
}

function Field({
  label,
  name,
  values,
  set,
  type = "text",
  maxLength,
  inputMode,
}: {
  label: string;
  name: string;
  values: Values;
  set: Setter;
  type?: string;
  maxLength?: number;
  inputMode?: "decimal";
}) {
  return (
    <label>
      {label}
      <input
        name={name}
        type={type}
        inputMode={inputMode}
        maxLength={maxLength}
        autoComplete="off"
        value={values[name] ?? ""}
        onChange={(event) => set(name, event.target.value)}
      />
    </label>
  );
}

function MoneyFields({ values, set }: { values: Values; set: Setter }) {
  return (
    <>
      <Field label="Amount" name="amount" inputMode="decimal" values={values} set={set} />
      <Field label="Remark" name="remark" maxLength={REMARK_MAX} values={values} set={set} />
    </>
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

/** A checkbox shown as a switch (spec §9: 20 high, 50 wide). */
function Switch({
  label,
  name,
  value = "on",
  checked,
  disabled,
  onToggle,
}: {
  label: string;
  name: string;
  value?: string;
  checked: boolean;
  disabled?: boolean;
  onToggle: () => void;
}) {
  return (
    <label className="switch">
      <input type="checkbox" role="switch" name={name} value={value} checked={checked} disabled={disabled} onChange={onToggle} />
      <span className="switch-track" aria-hidden="true" />
      {label}
    </label>
  );
}

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
        ) : entries.length === 0 ? (
          <p className="dim">No sign-ins yet</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>IP</th>
                <th>Device</th>
                <th>Browser</th>
                <th>Time</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => (
                <tr key={index}>
                  <td>
                    <a href={`https://ipinfo.io/${encodeURIComponent(entry.ip)}`} target="_blank" rel="noreferrer">
                      {entry.ip}
                    </a>
                  </td>
                  <td>{entry.device}</td>
                  <td>{entry.browser}</td>
                  <td>{formatDateTime(entry.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
