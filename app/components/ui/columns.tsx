/**
 * Column helpers of the list kit: the kinds of cell every desk shows, written once (money
 * right-aligned with two decimals, times in the console's zone, links, row buttons). Each is sized
 * to its content, so none is ever cut.
 */
import type { ReactNode } from "react";
import { formatDateTime, formatMoney } from "../../lib/format";
import type { Column } from "./Table";

type Shape = { sortKey?: string; width?: string };

/** A row button's padding, left and right (app.css `.row-actions button`). */
const BUTTON_CHROME_PX = 12;

/** Text shown as it is: a label or a code sized to it, or `free` text (names, remarks) cut to the width left. */
export const textColumn = <Row,>(
  id: string,
  header: string,
  text: (row: Row) => string,
  { free = false, ...shape }: Shape & { free?: boolean } = {},
): Column<Row> => ({
  id,
  header,
  ...(free ? {} : { fit: "content" }),
  ...shape,
  text,
  cell: text,
});

export const moneyColumn = <Row,>(id: string, header: string, amount: (row: Row) => number, shape: Shape = {}): Column<Row> => ({
  ...textColumn(id, header, (row: Row) => formatMoney(amount(row)), shape),
  numeric: true,
});

/** `DD/MM/YY hh:mm a`, with seconds where the spec asks (deposits and withdrawals). */
export const timeColumn = <Row,>(
  id: string,
  header: string,
  iso: (row: Row) => string,
  { seconds = false, ...shape }: Shape & { seconds?: boolean } = {},
): Column<Row> => textColumn(id, header, (row: Row) => formatDateTime(iso(row), seconds), shape);

/**
 * A link to another screen about the row (its report, its history): a plain anchor, which the
 * table follows in the app (Table's `followLink`). A page's rows hold a hundred or more of them:
 * a router link each, with its own hooks, kept the Users switch over its budget (issue 35;
 * docs/benchmarks.md, "Screen switches from the keydown of `g`").
 */
export const linkColumn = <Row,>(id: string, header: string, text: string, to: (row: Row) => string, shape: Shape = {}): Column<Row> => ({
  id,
  header,
  fit: "content",
  ...shape,
  text: () => text,
  cell: (row) => (
    <a href={to(row)} data-row-link="">
      {text}
    </a>
  ),
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
  fit: "content",
  // The labels joined by spaces: a space stands for the gap between two buttons.
  text: () => actions.map((action) => action.label).join(" "),
  chrome: actions.length * BUTTON_CHROME_PX,
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
