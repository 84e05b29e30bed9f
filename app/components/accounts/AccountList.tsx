/**
 * The users / panels list (docs/product.md §2.5): search, a dense keyboard table, pagination. One screen,
 * two modes. Enter opens the row's inline panel of actions.
 */
import { Link, useLoaderData, useLocation, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { PartnerRow, UserRow } from "../../../protocol/wire";
import { rememberAccounts } from "../../commands/account-cache";
import { accountQueryString, usersDownloadHref, type AccountSortKey } from "../../lib/account-list";
import type { AccountListData } from "../../lib/accounts.server";
import { MESSAGING_COUNTRY_CODE } from "../../lib/constants";
import { mayUse, SCREENS } from "../../lib/screens";
import { notifySuccess } from "../../lib/feedback";
import { actionsColumn, linkColumn, moneyColumn, textColumn, timeColumn } from "../ui/columns";
import { Pagination } from "../ui/Pagination";
import { useCommand, useOperator, useReportSelection } from "../ui/shell-context";
import { Table, type Column } from "../ui/Table";
import { useListScreen } from "../ui/use-list-screen";
import { AccountPanel } from "./AccountPanel";
import { AddAccountDialog } from "./AddAccountDialog";

type Row = UserRow | PartnerRow;

/** docs/product.md §2.5: clicking certain cells copies their text. */
function Copyable({ text }: { text: string }) {
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => notifySuccess(`Copied to clipboard: ${text}`));
  };
  return (
    <button type="button" className="copyable" onClick={copy} title={`Copy ${text}`}>
      {text}
    </button>
  );
}

const historyLink = (row: Row, type: "deposits" | "withdraws", role: string) =>
  `/transactions?${new URLSearchParams({ user: row._id, role, username: row.username, type })}`;

type RowCommands = {
  /** Opens the row's inline panel, with its login logs or not. */
  open: (row: Row, logs: boolean) => void;
  /** Role 1's MD button: the registry's Make default admin…, which confirms. */
  makeDefault: ((row: Row) => void) | null;
};

function columnsFor(mode: AccountListData["mode"], superAdmin: boolean, commands: RowCommands): Column<Row>[] {
  const isUsers = mode === "users";
  const role = isUsers ? "user" : "partner";
  const columns: Array<Column<Row> | false> = [
    { id: "id", header: "ID", sortKey: "_id", fit: "content", text: (row) => row._id, cell: (row) => <Copyable text={row._id} /> },
    { id: "username", header: "Username", sortKey: "username", text: (row) => row.username, cell: (row) => <Copyable text={row.username} /> },
    textColumn("mobNo", "Mob No.", (row) => row.mobNo ?? ""),
    isUsers && {
      id: "message",
      header: "Message",
      fit: "content",
      text: (row) => (row.mobNo ? "WhatsApp" : ""),
      cell: (row) =>
        row.mobNo ? (
          <a href={`https://wa.me/${MESSAGING_COUNTRY_CODE}${row.mobNo}`} target="_blank" rel="noreferrer">
            WhatsApp
          </a>
        ) : null,
    },
    // docs/product.md §6: only role 1 sees passwords.
    superAdmin && { id: "password", header: "Password", text: (row) => row.password ?? "", cell: (row) => (row.password ? <Copyable text={row.password} /> : "") },
    !isUsers && textColumn("role", "Role", (row) => (row as PartnerRow).roleName),
    moneyColumn("balance", "Balance", (row) => row.balance, { sortKey: "balance" }),
    moneyColumn("bonus", "Bonus", (row) => row.bonus, { sortKey: "bonus" }),
    linkColumn("report", "Report", "Report", (row) => `/report-v1?${new URLSearchParams({ user: row._id, type: role, username: row.username })}`),
    !isUsers && linkColumn("users", "Users", "Users", (row) => `/users/${row._id}`),
    !isUsers && linkColumn("panels", "Panels", "Panels", (row) => `/partners/${row._id}`),
    isUsers && linkColumn("bets", "Bet History", "Bets", (row) => `/users/bets?${new URLSearchParams({ user: row._id, username: row.username })}`),
    isUsers && linkColumn("deposits", "Deposit History", "Deposits", (row) => historyLink(row, "deposits", role)),
    isUsers && linkColumn("withdraws", "Withdrawal History", "Withdrawals", (row) => historyLink(row, "withdraws", role)),
    actionsColumn("actions", "Actions", [{ label: "Actions", run: (row) => commands.open(row, false) }]),
    commands.makeDefault !== null && actionsColumn("md", "MD", [{ label: "MD", title: "Make default admin", run: commands.makeDefault }]),
    actionsColumn("logs", "Login Logs", [{ label: "Logs", run: (row) => commands.open(row, true) }]),
    timeColumn("createdAt", "Created Time", (row) => row.createdAt, { sortKey: "createdAt" }),
  ];
  return columns.filter((column): column is Column<Row> => Boolean(column));
}

/** The default export of the /users and /partners routes, whose loaders call loadAccountList. */
export function AccountListScreen() {
  const { mode, panel, query, list, superAdmin, defaultAdmin } = useLoaderData<AccountListData>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const [params] = useSearchParams();
  const operator = useOperator();
  const operatorFlags = operator.flags;
  const [search, setSearch] = useState(query.search);
  const searchBox = useRef<HTMLInputElement>(null);
  const makeDefault = useCommand("account.make-default");
  const download = useCommand("account.download");
  const trail = useCommand("audit.account");
  // The add dialog is part of the address (`?new=1`), so a button and a palette command open it alike.
  const adding = params.get("new") === "1";
  const { table, pagination, selected, expanded, setExpanded, cursorRow } = useListScreen({
    list,
    rowKey: (row) => row._id,
    pageHref: (page) => accountQueryString(query, { page }),
    pageKey: `${mode}:${panel}:${accountQueryString(query, { page: query.page })}`,
    panels: true,
    searchBox,
    active: !adding,
    // A row answers the account pick sources (app/commands/accounts.ts); a panel's row Make default admin… too.
    rowPick: (row) => ({ sources: mode === "partners" ? ["accounts", "panels"] : ["accounts"], answers: { user: row._id, "user.label": row.username, "user.mode": mode } }),
    keys: {
      // The registry's Audit trail of account…, which only operators who may read the trail run.
      "accounts.trail": (): boolean | void => {
        const row: Row | undefined = cursorRow;
        if (!row || !mayUse(SCREENS.audit, operator)) return false;
        trail({ user: row._id, "user.label": row.username });
      },
    },
  });
  const columns = useMemo(
    () =>
      columnsFor(mode, superAdmin, {
        open: (row, logs) => setExpanded({ id: row._id, logs }),
        // docs/product.md §2.5: role 1 sees an MD button on each panel.
        makeDefault: mode === "partners" && superAdmin ? (row) => makeDefault({ user: row._id, "user.label": row.username }) : null,
      }),
    [mode, superAdmin, makeDefault, setExpanded],
  );

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
  const closeDialog = useCallback(
    () => navigate(accountQueryString(query, { page: query.page }), { replace: true }),
    [navigate, query],
  );
  const listPath = panel ? `/${mode}/${panel}` : `/${mode}`;
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
          {/* A search past the API's count limit: "1000+" (totalCapped, an extension). */}
          {list.total}
          {list.totalCapped ? "+" : ""} {mode === "users" ? "users" : "panels"}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </span>
        <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), new: "1" })}`} className="button">
          {mode === "users" ? "Add User" : "Add Panel"}
        </Link>
        {mode === "users" && (
          // A real link (it works before the page's script loads); a click runs the palette's command.
          <a
            className="button"
            download
            href={usersDownloadHref(location)}
            onClick={(event) => {
              event.preventDefault();
              download();
            }}
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
        columns={columns}
        sort={{ key: query.orderBy, ascending: query.isAcc }}
        onSort={sortBy}
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
        emptyText={query.search ? `No ${mode === "users" ? "users" : "panels"} match “${query.search}”` : "None yet"}
        {...table}
      />
      <Pagination {...pagination} />
      {adding && <AddAccountDialog isPartner={mode === "partners"} action={listPath} onClose={closeDialog} />}
    </section>
  );
}
