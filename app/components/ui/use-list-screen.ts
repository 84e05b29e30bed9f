/**
 * The list kit's client half: one hook owns a list screen's cursor, selection, open panel,
 * `?open=` address, page addresses, its refresh and the list keys (app/commands/list.ts). A screen gives it its
 * rows and how to address a page, and hands `table` and `pagination` to <Table> and <Pagination>.
 */
import { useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState, type RefObject } from "react";
import type { Page } from "../../../protocol/wire";
import { pageCountOf } from "../../lib/list";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import type { RowPick } from "../../lib/palette-history";
import { useRepeatOnRow, useScreenCommands, type ScreenHandlers } from "./shell-context";
import { extendSelection, moveCursor, type CursorKey } from "./table-model";

type ListPage<Row> = Omit<Page<Row>, "items"> & { items: readonly Row[] };

export type ListScreenOptions<Row> = {
  list: ListPage<Row>;
  rowKey: (row: Row) => string;
  /** The address of another page of this list, keeping its filters. */
  pageHref: (page: number) => string;
  /**
   * Names the rows showing (filters, page): a new one starts at the top with nothing selected,
   * while the same page reloaded after an action keeps cursor, selection and panel.
   */
  pageKey: string;
  /** Whether Enter opens an inline panel under the row (`?open=<id>` opens it from the address). */
  panels?: boolean;
  /** The search box `/` focuses, where the screen has one. */
  searchBox?: RefObject<HTMLInputElement>;
  /** The screen's own keys (its scopes' commands), beside the list's. */
  keys?: ScreenHandlers;
  /** False while the screen's own dialog is open: the list keys and the refresh rest. */
  active?: boolean;
  /** Reload the page this often while it shows (and the tab is visible). */
  refreshMs?: number;
  /** The row as a pick step's answer (an account row: its `user`), so `.` repeats a row command on it. */
  rowPick?: (row: Row) => RowPick;
};

export type Expanded = { id: string; logs: boolean };

const ROW_HEIGHT = 23;

/** The state and key handlers of a list; `useListScreen` adds the shell's key registration. */
export function useListState<Row>(options: ListScreenOptions<Row>) {
  const { list, rowKey, pageHref, pageKey, panels = false, searchBox, keys, active = true } = options;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [expanded, setExpanded] = useState<Expanded | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const anchor = useRef<number | null>(null);
  const pageCount = pageCountOf(list);
  const openId = params.get("open");
  const openLogs = params.get("logs") === "1";

  useEffect(() => {
    const index = openId ? list.items.findIndex((row) => rowKey(row) === openId) : -1;
    setCursor(Math.max(0, index));
    setSelected(new Set());
    setExpanded(panels && index >= 0 ? { id: openId!, logs: openLogs } : null);
    // Only a new page or address resets; list.items changes on every reload.
  }, [pageKey, openId, openLogs]);

  // A reload may bring fewer rows (a request decided elsewhere): keep the cursor on one.
  useEffect(() => setCursor((current) => Math.min(current, Math.max(0, list.items.length - 1))), [list.items.length]);
  // ...and the selection names only rows still showing, so its count never names rows that are gone.
  useEffect(() => {
    const showing = new Set(list.items.map(rowKey));
    setSelected((current) => ([...current].every((key) => showing.has(key)) ? current : new Set([...current].filter((key) => showing.has(key)))));
  }, [list.items]);

  const keysOfRows = () => list.items.map(rowKey);
  const move = (to: CursorKey, extend = false) => {
    if (!active) return false;
    const pageRows = Math.max(1, Math.floor((viewport.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const next = moveCursor(cursor, to, list.items.length, pageRows);
    if (extend) {
      anchor.current ??= cursor;
      setSelected(extendSelection(selected, keysOfRows(), anchor.current, next));
    } else {
      anchor.current = null;
    }
    setCursor(next);
  };
  const goToPage = (page: number) => {
    if (!active || page < 1 || page > pageCount) return false;
    navigate(pageHref(page));
  };
  const cursorRow: Row | undefined = list.items[cursor];

  const handlers: ScreenHandlers = {
    "list.down": () => move("down"),
    "list.up": () => move("up"),
    "list.first": () => move("home"),
    "list.last": () => move("end"),
    "list.page-down": () => move("pageDown"),
    "list.page-up": () => move("pageUp"),
    "list.extend-down": () => move("down", true),
    "list.extend-up": () => move("up", true),
    "list.open": () => {
      if (!active || !panels || !cursorRow) return false;
      setExpanded({ id: rowKey(cursorRow), logs: false });
    },
    "list.select": () => {
      if (!active || !cursorRow) return false;
      const next = new Set(selected);
      const key = rowKey(cursorRow);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      setSelected(next);
    },
    "list.select-page": () => {
      if (!active) return false;
      setSelected(new Set(keysOfRows()));
    },
    "list.close": () => {
      if (expanded) setExpanded(null);
      else if (selected.size > 0) setSelected(new Set());
      else return false;
    },
    "list.previous-page": () => goToPage(list.page - 1),
    "list.next-page": () => goToPage(list.page + 1),
    "list.search": () => {
      if (!searchBox?.current) return false;
      searchBox.current.focus();
      searchBox.current.select();
    },
    ...keys,
  };

  return {
    cursor,
    cursorRow,
    selected,
    clearSelection: () => setSelected(new Set()),
    expanded,
    setExpanded,
    handlers,
    /** Spread into <Table>. */
    table: {
      rows: list.items,
      rowKey,
      cursor,
      onCursorChange: setCursor,
      selected,
      onSelectionChange: setSelected,
      expandedKey: expanded?.id ?? null,
      onClosePanel: () => setExpanded(null),
      viewportRef: viewport,
      rowHeight: ROW_HEIGHT,
    },
    /** Spread into <Pagination>. */
    pagination: { page: list.page, pageCount, onPage: (page: number) => navigate(pageHref(page)) },
  };
}

/** A list screen: its state, with its keys answering and its refresh running while it shows. */
export function useListScreen<Row>(options: ListScreenOptions<Row>) {
  const state = useListState(options);
  const repeatOnRow = useRepeatOnRow();
  const { active = true, rowPick } = options;
  useScreenCommands({
    ...state.handlers,
    "list.repeat": () => {
      if (!active || !rowPick || !state.cursorRow) return false;
      repeatOnRow(rowPick(state.cursorRow));
    },
  });
  useRefresh(options.refreshMs, options.active ?? true);
  return state;
}

function useRefresh(everyMs: number | undefined, active: boolean) {
  const revalidate = useQuietRevalidate();
  const latest = useRef({ active, revalidate });
  latest.current = { active, revalidate };
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(() => {
      if (latest.current.active && document.visibilityState === "visible") latest.current.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
}
