/**
 * The users / panels list (spec §2.5): search, a dense keyboard table, pagination. One screen,
 * two modes. Enter opens the row's inline panel of actions.
 */
import {
  Link,
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  useRouteLoaderData,
  useSearchParams,
} from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { PartnerRow, UserRow } from "../../../protocol/wire";
import { accountQueryParams, accountQueryString, type AccountSortKey } from "../../lib/account-list";
import { rememberAccounts } from "../../commands/account-cache";
import type { AccountListData } from "../../lib/accounts.server";
import { MESSAGING_COUNTRY_CODE } from "../../lib/constants";
import { notifySuccess, type Outcome } from "../../lib/feedback";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { formatDateTime, formatMoney } from "../../lib/format";
import type { loader as shellLoader } from "../../routes/_app";
import { AccountPanel } from "./AccountPanel";
import { AddAccountDialog } from "./AddAccountDialog";
import { useReportSelection } from "../ui/Shell";
import { Pagination } from "../ui/Pagination";
import { Table, type Column } from "../ui/Table";

type Row = UserRow | PartnerRow;

/** Spec §2.5: clicking certain cells copies their text. */
function Copyable({ text }: { text: string }) {
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => notifySuccess(`Copied to clipboard: ${text}`));
  };
  return (
    <button type="button" className="copyable" onClick={copy} title="Copy">
      {text}
    </button>
  );
}

const historyLink = (row: Row, type: "deposits" | "withdraws", role: string) =>
  `/transactions?${new URLSearchParams({ user: row._id, role, username: row.username, type })}`;

type RowCommands = {
  /** Opens the row's inline panel, with its login logs or not. */
  open: (row: Row, logs: boolean) => void;
  /** Role 1's MD button: makes the panel the default admin. */
  makeDefault: ((row: Row) => void) | null;
};

function columnsFor(mode: AccountListData["mode"], superAdmin: boolean, commands: RowCommands): Column<Row>[] {
  const isUsers = mode === "users";
  const role = isUsers ? "user" : "partner";
  const columns: Array<Column<Row> | false> = [
    { id: "id", header: "ID", sortKey: "_id", width: "70px", cell: (row) => <Copyable text={row._id} /> },
    { id: "username", header: "Username", sortKey: "username", cell: (row) => <Copyable text={row.username} /> },
    { id: "mobNo", header: "Mob No.", width: "120px", cell: (row) => row.mobNo ?? "" },
    isUsers && {
      id: "message",
      header: "Message",
      width: "80px",
      cell: (row) =>
        row.mobNo ? (
          <a href={`https://wa.me/${MESSAGING_COUNTRY_CODE}${row.mobNo}`} target="_blank" rel="noreferrer">
            WhatsApp
          </a>
        ) : null,
    },
    // Spec §6: only role 1 sees passwords.
    superAdmin && { id: "password", header: "Password", cell: (row) => (row.password ? <Copyable text={row.password} /> : "") },
    !isUsers && { id: "role", header: "Role", cell: (row) => (row as PartnerRow).roleName },
    { id: "balance", header: "Balance", sortKey: "balance", numeric: true, width: "120px", cell: (row) => formatMoney(row.balance) },
    { id: "bonus", header: "Bonus", sortKey: "bonus", numeric: true, width: "100px", cell: (row) => formatMoney(row.bonus) },
    {
      id: "report",
      header: "Report",
      width: "70px",
      cell: (row) => (
        <Link to={`/report-v1?${new URLSearchParams({ user: row._id, type: role, username: row.username })}`}>Report</Link>
      ),
    },
    !isUsers && { id: "users", header: "Users", width: "60px", cell: (row) => <Link to={`/users/${row._id}`}>Users</Link> },
    !isUsers && { id: "panels", header: "Panels", width: "60px", cell: (row) => <Link to={`/partners/${row._id}`}>Panels</Link> },
    isUsers && {
      id: "bets",
      header: "Bet History",
      width: "90px",
      cell: (row) => <Link to={`/users/bets?${new URLSearchParams({ user: row._id, username: row.username })}`}>Bets</Link>,
    },
    isUsers && { id: "deposits", header: "Deposit History", width: "80px", cell: (row) => <Link to={historyLink(row, "deposits", role)}>Deposits</Link> },
    isUsers && { id: "withdraws", header: "Withdrawal History", width: "90px", cell: (row) => <Link to={historyLink(row, "withdraws", role)}>Withdrawals</Link> },
    {
      id: "actions",
      header: "Actions",
      width: "70px",
      cell: (row) => (
        <button type="button" className="link" onClick={() => commands.open(row, false)}>
          Actions
        </button>
      ),
    },
    commands.makeDefault !== null && {
      id: "md",
      header: "MD",
      width: "50px",
      cell: (row) => (
        <button type="button" className="link" title="Make default admin" onClick={() => commands.makeDefault!(row)}>
          MD
        </button>
      ),
    },
    {
      id: "logs",
      header: "Login Logs",
      width: "90px",
      cell: (row) => (
        <button type="button" className="link" onClick={() => commands.open(row, true)}>
          Logs
        </button>
      ),
    },
    { id: "createdAt", header: "Created Time", sortKey: "createdAt", width: "150px", cell: (row) => formatDateTime(row.createdAt) },
  ];
  return columns.filter((column): column is Column<Row> => Boolean(column));
}

/** The default export of the /users and /partners routes, whose loaders call loadAccountList. */
export function AccountListScreen() {
  const { mode, panel, query, list, superAdmin, defaultAdmin } = useLoaderData<AccountListData>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const operatorFlags = useRouteLoaderData<typeof shellLoader>("routes/_app")?.operator.flags ?? {};
  const [cursor, setCursor] = useState(0);
  const [expanded, setExpanded] = useState<{ id: string; logs: boolean } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [search, setSearch] = useState(query.search);
  const searchBox = useRef<HTMLInputElement>(null);
  const makeDefault = useFetcher<Outcome>();
  useAnnouncedOutcome(makeDefault.data);
  const { submit } = makeDefault;
  const columns = useMemo(
    () =>
      columnsFor(mode, superAdmin, {
        open: (row, logs) => setExpanded({ id: row._id, logs }),
        // Spec §2.5: role 1 sees an MD button on each panel.
        makeDefault:
          mode === "partners" && superAdmin
            ? (row) => submit({ intent: "makeDefault", user: row._id, isPartner: "true" }, { method: "post" })
            : null,
      }),
    [mode, superAdmin, submit],
  );
  const pageCount = Math.max(1, Math.ceil(list.total / list.pageSize));

  // A new page of rows starts at its top with nothing selected.
  // A new page of rows starts at its top with nothing selected (or on the row `?open=` names, its
  // panel open). The same page reloaded after an action keeps the cursor, selection and panel.
  const [params] = useSearchParams();
  const openId = params.get("open");
  const openLogs = params.get("logs") === "1";
  const pageKey = `${mode}:${list.page}:${query.search}:${query.orderBy}:${query.isAcc}:${panel}:${openId}:${openLogs}`;
  useEffect(() => {
    const index = openId ? list.items.findIndex((row) => row._id === openId) : -1;
    setCursor(Math.max(0, index));
    setSelected(new Set());
    setExpanded(index >= 0 ? { id: openId!, logs: openLogs } : null);
    // Only a new page (pageKey) resets; list.items changes on every reload.
  }, [pageKey]);

  // `/` focuses the search box (UX.md).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== "/" || event.defaultPrevented || target?.closest("input, textarea, select, [role=dialog]")) return;
      event.preventDefault();
      searchBox.current?.focus();
      searchBox.current?.select();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  // The palette finds the accounts seen here without asking the server again.
  useEffect(
    () => rememberAccounts(list.items.map((row) => ({ id: row._id, username: row.username, mode, balance: row.balance }))),
    [list.items, mode],
  );

  // Bulk commands act on what is selected here.
  const reportSelection = useReportSelection();
  useEffect(() => {
    const rows = list.items.filter((row) => selected.has(row._id)).map((row) => ({ id: row._id, username: row.username }));
    reportSelection(rows.length ? { mode, rows } : null);
  }, [selected, list.items, mode, reportSelection]);
  useEffect(() => () => reportSelection(null), [reportSelection]);

  const go = (change: Parameters<typeof accountQueryString>[1]) => navigate(accountQueryString(query, change));
  // The add dialog is part of the address (`?new=1`), so a button and a palette command open it alike.
  const adding = params.get("new") === "1";
  const closeDialog = useCallback(
    () => navigate(accountQueryString(query, { page: query.page }), { replace: true }),
    [navigate, query],
  );
  const listPath = panel ? `/${mode}/${panel}` : `/${mode}`;
  const downloadParams = accountQueryParams(query, {});
  if (panel) downloadParams.set("partner", panel);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    go({ search });
    searchBox.current?.blur();
  };
  const sortBy = (key: string) =>
    go({ orderBy: key as AccountSortKey, isAcc: query.orderBy === key ? !query.isAcc : false });

  return (
    <section className="list-screen" aria-busy={navigation.state === "loading"}>
      <div className="toolbar">
        <form role="search" onSubmit={submitSearch}>
          <input
            ref={searchBox}
            type="search"
            aria-label="Search username"
            placeholder="/ search username"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={(event) => event.key === "Escape" && event.currentTarget.blur()}
          />
        </form>
        <span className="dim">
          {list.total} {mode === "users" ? "users" : "panels"}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </span>
        <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), new: "1" })}`} className="button">
          {mode === "users" ? "Add User" : "Add Panel"}
        </Link>
        {mode === "users" && (
          <a
            className="button"
            download
            href={`/resources/accounts/users/download?${downloadParams}`}
          >
            Download Users
          </a>
        )}
        {defaultAdmin && (
          <span className="default-admin">
            default admin: <strong>{defaultAdmin.username}</strong>
          </span>
        )}
      </div>
      <Table
        label={mode === "users" ? "Users" : "Panels"}
        rows={list.items}
        columns={columns}
        rowKey={(row) => row._id}
        cursor={cursor}
        onCursorChange={setCursor}
        selected={selected}
        onSelectionChange={setSelected}
        sort={{ key: query.orderBy, ascending: query.isAcc }}
        onSort={sortBy}
        expandedKey={expanded?.id ?? null}
        onOpen={(row) => setExpanded({ id: row._id, logs: false })}
        onClosePanel={() => setExpanded(null)}
        renderPanel={(row) => (
          <AccountPanel
            key={`${row._id}-${expanded?.logs}`}
            row={row}
            mode={mode}
            operatorFlags={operatorFlags}
            logs={expanded?.logs}
            onClose={() => setExpanded(null)}
          />
        )}
        keyboard
        emptyText={query.search ? `No ${mode === "users" ? "users" : "panels"} match “${query.search}”` : "None yet"}
      />
      <Pagination page={list.page} pageCount={pageCount} onPage={(page) => go({ page })} keyboard />
      {adding && <AddAccountDialog isPartner={mode === "partners"} action={listPath} onClose={closeDialog} />}
    </section>
  );
}
