/** The real Table with 5,000 rows, driven by the keyboard like a list screen. */
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { Table, type Column } from "../../app/components/ui/Table";

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

function Harness() {
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  return (
    <div style={{ height: "100vh" }}>
      <Table
        label="Bench"
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        cursor={cursor}
        onCursorChange={setCursor}
        selected={selected}
        onSelectionChange={setSelected}
        keyboard
      />
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<Harness />);
