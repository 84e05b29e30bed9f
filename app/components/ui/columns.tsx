/**
 * Column helpers of the list kit: the kinds of cell every desk shows, written once (money
 * right-aligned with two decimals, times in the console's zone, links, row buttons).
 */
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDateTime, formatMoney } from "../../lib/format";
import type { Column } from "./Table";

type Shape = { width?: string; sortKey?: string };

export const moneyColumn = <Row,>(id: string, header: string, amount: (row: Row) => number, shape: Shape = {}): Column<Row> => ({
  id,
  header,
  numeric: true,
  width: "110px",
  ...shape,
  cell: (row) => formatMoney(amount(row)),
});

/** `DD/MM/YY hh:mm a`, with seconds where the spec asks (deposits and withdrawals). */
export const timeColumn = <Row,>(
  id: string,
  header: string,
  iso: (row: Row) => string,
  { seconds = false, ...shape }: Shape & { seconds?: boolean } = {},
): Column<Row> => ({
  id,
  header,
  width: seconds ? "170px" : "150px",
  ...shape,
  cell: (row) => formatDateTime(iso(row), seconds),
});

/** A link to another screen about the row (its report, its history). */
export const linkColumn = <Row,>(id: string, header: string, text: string, to: (row: Row) => string, shape: Shape = {}): Column<Row> => ({
  id,
  header,
  ...shape,
  cell: (row) => <Link to={to(row)}>{text}</Link>,
});

/** Buttons acting on the row; each runs a registry command so its keys and the palette agree. */
export const actionsColumn = <Row,>(
  id: string,
  header: string,
  actions: ReadonlyArray<{ label: string; title?: string; run: (row: Row) => void }>,
  shape: Shape = {},
): Column<Row> => ({
  id,
  header,
  ...shape,
  cell: (row): ReactNode => (
    <span className="row-actions">
      {actions.map((action) => (
        <button key={action.label} type="button" className="link" title={action.title} onClick={() => action.run(row)}>
          {action.label}
        </button>
      ))}
    </span>
  ),
});
