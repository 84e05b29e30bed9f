/** The real Table with 5,000 rows, driven by the keyboard like a list screen: the list kit's state and the one key dispatcher. */
import { createRoot } from "react-dom/client";
// Remix's own router (@remix-run/react depends on it): the list kit reads the address for `?open=` and pages.
import { MemoryRouter } from "react-router-dom";
import { LIST_COMMANDS } from "../../app/commands/list";
import type { CommandContext } from "../../app/commands/types";
import { useKeyDispatcher } from "../../app/commands/use-key-dispatcher";
import { ShellContext, type ShellApi } from "../../app/components/ui/shell-context";
import { Table, type Column } from "../../app/components/ui/Table";
import { useListState } from "../../app/components/ui/use-list-screen";

type Row = { id: string; username: string; balance: number; bonus: number; createdAt: string };
const rows: Row[] = Array.from({ length: 5000 }, (_, i) => ({
  id: String(i + 1),
  username: `user${String(i + 1).padStart(5, "0")}`,
  balance: (i * 7919) % 100000,
  bonus: (i * 31) % 500,
  createdAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
}));
const columns: Column<Row>[] = [
  { id: "id", header: "ID", cell: (row) => row.id, width: "70px" },
  { id: "username", header: "Username", cell: (row) => row.username },
  { id: "balance", header: "Balance", numeric: true, cell: (row) => row.balance.toFixed(2) },
  { id: "bonus", header: "Bonus", numeric: true, cell: (row) => row.bonus.toFixed(2) },
  { id: "createdAt", header: "Created Time", cell: (row) => row.createdAt },
];
const list = { items: rows, total: rows.length, page: 1, pageSize: rows.length };

function Harness() {
  const { table, handlers } = useListState({ list, rowKey: (row) => row.id, pageHref: () => "", pageKey: "bench" });
  useKeyDispatcher({
    commands: [],
    screenCommands: LIST_COMMANDS,
    handlerOf: (id) => handlers[id as keyof typeof handlers],
    context: {} as CommandContext,
    paused: false,
    onFirstKey: () => {},
  });
  return (
    <div style={{ height: "100vh" }}>
      <Table label="Bench" columns={columns} {...table} />
    </div>
  );
}

// The table registers its view keys (`V`, `C`) with the shell, as on every list screen.
const noop = () => {};
const shell: ShellApi = {
  runCommand: noop,
  repeatOnRow: noop,
  registerHandlers: () => noop,
  reportSelection: noop,
  operator: { username: "admin", role: 1, flags: {} },
  lacking: {},
};

createRoot(document.getElementById("root")!).render(
  <MemoryRouter>
    <ShellContext.Provider value={shell}>
      <Harness />
    </ShellContext.Provider>
  </MemoryRouter>,
);
