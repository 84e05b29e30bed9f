/**
 * The dense keyboard table every list screen uses. Only the rows in view are rendered (fixed row
 * height), so thousands of rows stay smooth. It draws the cursor, selection and open panel that
 * `useListScreen` owns; the keys that move them are the list commands (app/commands/list.ts).
 * Which columns show, in which order and width, is the operator's view (use-table-view.ts): `C`
 * chooses them, `V` saves and applies views. Test hooks: `[data-table-row]`, `[data-cursor]`, `aria-selected`.
 */
import { useNavigate } from "@remix-run/react";
import { memo, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode, type RefObject } from "react";
import { useBrowserLayoutEffect } from "./use-browser-layout-effect";
import { ColumnChooser } from "./ColumnChooser";
import { columnTrack, OVERSCAN_ROWS, scrollToReveal, visibleRange } from "./table-model";
import { useTableView } from "./use-table-view";
import { ViewMenu } from "./ViewMenu";

export type Column<Row> = {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * The cell's whole value as text. A content column is sized by it; a free column shows it as the
   * cut cell's tooltip and at the top of the row's panel.
   */
  text?: (row: Row) => string;
  /** `content`: as wide as its widest text, never cut (times, money, ids, links, buttons). Free by default. */
  fit?: "content";
  /** Pixels a content cell adds around its text (buttons' padding). */
  chrome?: number;
  /** Numbers are right-aligned. */
  numeric?: boolean;
  /** Present when the column sorts; the server's `orderBy` name. */
  sortKey?: string;
  /** A free column's grid track instead of an equal share of the width left; the least a content column takes. */
  width?: string;
};

export type Sort = { key: string; ascending: boolean };

export type TableProps<Row> = {
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  cursor: number;
  onCursorChange: (cursor: number) => void;
  selected: ReadonlySet<string>;
  onSelectionChange: (selected: Set<string>) => void;
  sort?: Sort;
  onSort?: (key: string) => void;
  /** The row whose inline panel is open, and the panel itself. */
  expandedKey?: string | null;
  renderPanel?: (row: Row) => ReactNode;
  onClosePanel?: () => void;
  /** The scrolling body, so page moves know how many rows show. */
  viewportRef?: RefObject<HTMLDivElement>;
  emptyText?: string;
  rowHeight?: number;
};

/** Runs `then` in a task after the next frame has painted; answers its cancel. */
function afterPaint(then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(then)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

export function Table<Row>(props: TableProps<Row>) {
  const { rows, rowKey, cursor, selected, expandedKey, rowHeight = 23 } = props;
  const view = useTableView(props.columns);
  const columns = view.shown;
  const table = useRef<HTMLDivElement>(null);
  const ownViewport = useRef<HTMLDivElement>(null);
  const viewport = props.viewportRef ?? ownViewport;
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  // A screen's first frame draws the rows in view alone; those around them follow once it has
  // painted, so a screen switch shows its table sooner (docs/benchmarks.md, screen switches).
  const [overscan, setOverscan] = useState(0);
  useEffect(() => afterPaint(() => setOverscan(OVERSCAN_ROWS)), []);
  const [panelHeight, setPanelHeight] = useState(0);
  const navigate = useNavigate();
  /** A row's link (columns.tsx `linkColumn`) opens its screen in the app; a modified or middle click is the browser's (a new tab). */
  const followLink = (event: MouseEvent) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-row-link]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(link.getAttribute("href")!);
  };

  const expandedIndex = expandedKey ? rows.findIndex((row) => rowKey(row) === expandedKey) : -1;
  /** Pixel offset of row i: rows below an open panel sit lower by its height. */
  const offsetOf = useCallback(
    (index: number) => index * rowHeight + (expandedIndex >= 0 && index > expandedIndex ? panelHeight : 0),
    [rowHeight, expandedIndex, panelHeight],
  );

  useBrowserLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const measure = () => {
      const [top, height] = [element.scrollTop, element.clientHeight];
      // The observer's first call repeats the mount's measure: nothing to render again.
      setScroll((was) => (was.top === top && was.height === height ? was : { top, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Keep the cursor row in view.
  useBrowserLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const top = offsetOf(cursor);
    const target = scrollToReveal(top / rowHeight, element.scrollTop, element.clientHeight, rowHeight);
    if (target !== null) element.scrollTop = target;
  }, [cursor, offsetOf, rowHeight]);

  const { start, end } = visibleRange(scroll.top, scroll.height, rowHeight, rows.length, overscan);
  const totalHeight = rows.length * rowHeight + (expandedIndex >= 0 ? panelHeight : 0);
  // Content columns are measured over every row of the page, not only those in view, so widths hold while scrolling.
  const template = useMemo(
    () =>
      columns
        .map((column) =>
          columnTrack({
            ...column,
            sortable: Boolean(column.sortKey),
            texts: column.fit === "content" && column.text ? rows.map(column.text) : [],
            chars: view.layout.widths[column.id],
          }),
        )
        .join(" "),
    [columns, rows, view.layout.widths],
  );
  const freeTexts = columns.filter((column) => column.fit !== "content" && column.text);
  // The open panel's row must be rendered even when scrolled away, so the panel keeps its height.
  const indexes = Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
  if (expandedIndex >= 0 && (expandedIndex < start || expandedIndex >= end)) indexes.push(expandedIndex);

  return (
    <>
      <div
        ref={table}
        className="table"
        role="grid"
        aria-label={props.label}
        aria-rowcount={rows.length + 1}
        aria-multiselectable="true"
        style={{ ["--columns" as string]: template }}
      >
        <div className="table-head" role="row" aria-rowindex={1}>
          {columns.map((column) => (
            <HeaderCell key={column.id} column={column} sort={props.sort} onSort={props.onSort} />
          ))}
        </div>
        <div
          ref={viewport}
          className="table-body"
          onClick={followLink}
          onScroll={(event) => setScroll({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
        >
          {rows.length === 0 ? (
            <p className="table-empty dim">{props.emptyText ?? "No rows"}</p>
          ) : (
            <div style={{ height: totalHeight, position: "relative" }}>
              {indexes.map((index) => {
                const row = rows[index]!;
                const key = rowKey(row);
                const open = index === expandedIndex;
                return (
                  <div key={key} style={{ position: "absolute", top: offsetOf(index), left: 0, right: 0 }}>
                    <TableRow
                      row={row}
                      index={index}
                      columns={columns}
                      isCursor={index === cursor}
                      isSelected={selected.has(key)}
                      onPick={props.onCursorChange}
                    />
                    {open && props.renderPanel && (
                      <Panel onHeight={setPanelHeight}>
                        {freeTexts.length > 0 && (
                          <dl className="row-values">
                            {freeTexts.map((column) => (
                              <div key={column.id}>
                                <dt>{column.header}</dt>
                                <dd>{column.text!(row)}</dd>
                              </div>
                            ))}
                          </dl>
                        )}
                        {props.renderPanel(row)}
                      </Panel>
                    )}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
      {view.layer === "columns" && (
        <ColumnChooser columns={props.columns} layout={view.layout} onLayout={view.setLayout} table={table} onClose={view.closeLayer} />
      )}
      {view.layer === "views" && (
        <ViewMenu views={view.views} onApply={view.applyView} onSave={view.saveView} onDelete={view.deleteView} onClose={view.closeLayer} />
      )}
    </>
  );
}

function HeaderCell<Row>({ column, sort, onSort }: { column: Column<Row>; sort?: Sort; onSort?: (key: string) => void }) {
  const sorted = column.sortKey && sort?.key === column.sortKey;
  const ariaSort = sorted ? (sort!.ascending ? "ascending" : "descending") : column.sortKey ? "none" : undefined;
  return (
    <div role="columnheader" aria-sort={ariaSort} className={column.numeric ? "num" : undefined} data-column={column.id}>
      {column.sortKey && onSort ? (
        <button type="button" className="sort" onClick={() => onSort(column.sortKey!)}>
          {column.header}
          <span aria-hidden="true">{sorted ? (sort!.ascending ? " ▲" : " ▼") : ""}</span>
        </button>
      ) : (
        column.header
      )}
    </div>
  );
}

type RowProps<Row> = {
  row: Row;
  index: number;
  columns: readonly Column<Row>[];
  isCursor: boolean;
  isSelected: boolean;
  onPick: (index: number) => void;
};

// Memoised: a cursor move re-renders the two rows whose cursor flag changed, not the page.
const TableRow = memo(function TableRow<Row>({ row, index, columns, isCursor, isSelected, onPick }: RowProps<Row>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-table-row=""
      data-cursor={isCursor ? "" : undefined}
      className="table-row"
      onMouseDown={() => onPick(index)}
    >
      {columns.map((column) => (
        <div
          key={column.id}
          role="gridcell"
          className={column.numeric ? "num" : undefined}
          title={column.fit === "content" ? undefined : column.text?.(row)}
        >
          {column.cell(row)}
        </div>
      ))}
    </div>
  );
}) as <Row>(props: RowProps<Row>) => ReactNode;

function Panel({ children, onHeight }: { children: ReactNode; onHeight: (height: number) => void }) {
  const element = useRef<HTMLDivElement>(null);
  useBrowserLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const observer = new ResizeObserver(() => onHeight(node.offsetHeight));
    observer.observe(node);
    onHeight(node.offsetHeight);
    return () => {
      observer.disconnect();
      onHeight(0);
    };
  }, [onHeight]);
  return (
    <div ref={element} className="table-panel" role="region" aria-label="Row panel">
      {children}
    </div>
  );
}
