/**
 * `C` (issue 32, docs/ux.md "Views and columns"): the table's columns, shown ones first in their
 * order. `j`/`k` or ↓/↑ move the cursor, Space shows or hides its column, `J`/`K` move it down or
 * up, `<`/`>` narrow or widen it, `0` gives it back its own width; Esc or Enter closes. Every
 * change shows at once in the table behind.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { chooserLines, layoutOfLines, type ChooserLine, moveLine, resized, toggleLine, type Layout } from "../../lib/list-view";
import { Overlay } from "./Overlay";

type ColumnChooserProps = {
  columns: readonly { id: string; header: string }[];
  layout: Layout;
  onLayout: (layout: Layout) => void;
  /** The table, whose header cells tell a column's drawn width. */
  table: RefObject<HTMLElement>;
  onClose: () => void;
};

/** A column's drawn width in characters of the console's monospace font. */
function drawnChars(table: HTMLElement | null, id: string): number {
  const cell = table?.querySelector<HTMLElement>(`[data-column="${CSS.escape(id)}"]`);
  if (!table || !cell) return 12;
  const probe = Object.assign(document.createElement("span"), { textContent: "0".repeat(10) });
  probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre";
  table.append(probe);
  const ch = probe.getBoundingClientRect().width / 10;
  probe.remove();
  return Math.round(cell.getBoundingClientRect().width / ch);
}

export function ColumnChooser({ columns, layout, onLayout, table, onClose }: ColumnChooserProps) {
  // The lines stay where they are while the chooser is open: a column hidden keeps its place.
  const [lines, setLines] = useState(() => chooserLines(columns, layout));
  const [cursor, setCursor] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  // Before the overlay's own focus (an effect), which would otherwise end on the dialog itself.
  useLayoutEffect(() => list.current?.focus(), []);
  const headerOf = new Map(columns.map((column) => [column.id, column.header]));
  const set = (next: ChooserLine[], widths = layout.widths) => {
    setLines(next);
    onLayout(layoutOfLines(next, widths));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const line = lines[cursor];
    const act: Record<string, () => void> = {
      j: () => setCursor(Math.min(lines.length - 1, cursor + 1)),
      ArrowDown: () => setCursor(Math.min(lines.length - 1, cursor + 1)),
      k: () => setCursor(Math.max(0, cursor - 1)),
      ArrowUp: () => setCursor(Math.max(0, cursor - 1)),
      " ": () => set(toggleLine(lines, cursor)),
      J: () => {
        set(moveLine(lines, cursor, 1));
        setCursor(Math.min(lines.length - 1, cursor + 1));
      },
      K: () => {
        set(moveLine(lines, cursor, -1));
        setCursor(Math.max(0, cursor - 1));
      },
      "<": () => line && set(lines, resized(layout.widths, line.id, layout.widths[line.id] ?? drawnChars(table.current, line.id), -1)),
      ">": () => line && set(lines, resized(layout.widths, line.id, layout.widths[line.id] ?? drawnChars(table.current, line.id), 1)),
      "0": () => line && set(lines, Object.fromEntries(Object.entries(layout.widths).filter(([id]) => id !== line.id))),
      Enter: onClose,
    };
    const action = act[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  };

  return (
    <Overlay label="Columns" onClose={onClose} className="dialog chooser">
      <h2>Columns</h2>
      <ul ref={list} role="listbox" aria-label="Columns" tabIndex={0} aria-activedescendant={`column-${cursor}`} onKeyDown={onKeyDown}>
        {lines.map((line, index) => (
          <li
            key={line.id}
            id={`column-${index}`}
            role="option"
            aria-selected={index === cursor}
            aria-checked={line.shown}
            className={line.shown ? undefined : "dim"}
            onMouseDown={() => setCursor(index)}
          >
            <span aria-hidden="true">{line.shown ? "[x] " : "[ ] "}</span>
            {headerOf.get(line.id)}
            {layout.widths[line.id] !== undefined && <span className="dim"> {layout.widths[line.id]}ch</span>}
          </li>
        ))}
      </ul>
      <p className="dim chooser-hint">
        <kbd>Space</kbd> show/hide · <kbd>J</kbd>/<kbd>K</kbd> move · <kbd>&lt;</kbd>/<kbd>&gt;</kbd> width · <kbd>0</kbd> own width ·{" "}
        <kbd>Esc</kbd> close
      </p>
    </Overlay>
  );
}
