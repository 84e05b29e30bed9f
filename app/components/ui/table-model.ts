/**
 * The table's pure parts: which rows are in view, where the cursor goes for a key, and which
 * page buttons to show. Kept apart from React so each rule is tested on its own.
 */

/** Spec §9: pagination shows at most 7 buttons. `null` stands for a gap (…). */
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

/** Rows to render for a viewport, with a few extra above and below so fast scrolling stays filled. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = 8,
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
