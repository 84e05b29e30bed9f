/**
 * The table's pure parts: how wide each column is, which rows are in view, where the cursor goes
 * for a key, and which page buttons to show. Kept apart from React so each rule is tested on its own.
 */

/** What a column's width depends on; `texts` are its cells' text on this page (content columns). */
export type TrackSpec = {
  header: string;
  sortable: boolean;
  fit?: "content";
  chrome?: number;
  width?: string;
  texts?: readonly string[];
  /** The operator's width from a view (app/lib/list-view.ts `widths`), in characters: it wins. */
  chars?: number;
};

/** A cell's left and right padding together, in pixels (app.css). */
const CELL_PADDING_PX = 16;
/** A free column is never narrower than this many characters. */
const FREE_MIN_CHARS = 8;

/** Characters a header needs on a line: its longest word (headers wrap between words), and the sort mark ` ▲`. */
const headerChars = (header: string, sortable: boolean) =>
  Math.max(0, ...header.split(/\s+/).map((word) => word.length)) + (sortable ? 2 : 0);

/**
 * A column's grid track. The console's one font is monospace, so `ch` is every character's real
 * width: a content column (times, money, ids, links, buttons) is exactly as wide as its widest text
 * or header word, so it is never cut; a free column shares what is left, at least its header, and
 * cuts its text with an ellipsis. A `width` is a free column's track, and the least a content column
 * takes; `chars`, the operator's own width, overrides them all.
 */
export function columnTrack({ header, sortable, fit, chrome = 0, width, texts = [], chars }: TrackSpec): string {
  if (chars !== undefined) return `calc(${chars}ch + ${CELL_PADDING_PX + chrome}px)`;
  const headerWidth = headerChars(header, sortable);
  if (fit === "content") {
    const chars = Math.max(headerWidth, ...texts.map((text) => [...text].length));
    const content = `calc(${chars}ch + ${CELL_PADDING_PX + chrome}px)`;
    return width ? `max(${width}, ${content})` : content;
  }
  return width ?? `minmax(calc(${Math.max(headerWidth, FREE_MIN_CHARS)}ch + ${CELL_PADDING_PX}px), 1fr)`;
}

/** docs/product.md §9: pagination shows at most 7 buttons. `null` stands for a gap (…). */
export function pageButtons(page: number, pageCount: number): Array<number | null> {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  if (page <= 4) return [1, 2, 3, 4, 5, null, pageCount];
  if (page >= pageCount - 3) return [1, null, pageCount - 4, pageCount - 3, pageCount - 2, pageCount - 1, pageCount];
  return [1, null, page - 1, page, page + 1, null, pageCount];
}

export type CursorKey = "down" | "up" | "home" | "end" | "pageDown" | "pageUp";

/** The cursor after a movement key, clamped to the rows. */
export function moveCursor(cursor: number, key: CursorKey, rowCount: number, pageRows: number): number {
  if (rowCount === 0) return 0;
  const last = rowCount - 1;
  const next = {
    down: cursor + 1,
    up: cursor - 1,
    home: 0,
    end: last,
    pageDown: cursor + pageRows,
    pageUp: cursor - pageRows,
  }[key];
  return Math.max(0, Math.min(last, next));
}

/** Rows rendered above and below the viewport, so fast scrolling stays filled. */
export const OVERSCAN_ROWS = 8;

/** Rows to render for a viewport, with `overscan` extra above and below. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = OVERSCAN_ROWS,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(rowCount, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { start, end };
}

/** The scrollTop that brings row `index` fully into view, or null when it already is. */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number | null {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return null;
}

/** Selection after Shift+↓/↑: the rows from the anchor to the cursor, added to what was chosen. */
export function extendSelection(selected: ReadonlySet<string>, keys: readonly string[], from: number, to: number): Set<string> {
  const next = new Set(selected);
  const [low, high] = from <= to ? [from, to] : [to, from];
  for (let i = low; i <= high; i++) {
    const key = keys[i];
    if (key !== undefined) next.add(key);
  }
  return next;
}
