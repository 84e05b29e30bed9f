/**
 * A short table of records shown whole (staff, coupons, an account's sign-ins): no cursor, paging
 * or panel, unlike the list kit's `Table`. Its columns are the list kit's (`Column` and the helpers
 * in columns.tsx), so a cell reads the same in both.
 */
import type { Column } from "./Table";

type RecordTableProps<Row> = {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** Said in the table while it has no rows. */
  emptyText: string;
};

export function RecordTable<Row>({ label, columns, rows, rowKey, emptyText }: RecordTableProps<Row>) {
  return (
    <table className="record-table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.id}>{column.header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)}>
            {columns.map((column) => (
              <td key={column.id} className={column.numeric ? "numeric" : undefined}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={columns.length} className="dim">
              {emptyText}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
