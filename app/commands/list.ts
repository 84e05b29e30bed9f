/**
 * The list kit's keys (docs/ux.md "Keys"), on every screen with the `list` scope; `/` where there
 * is a search. `V` and `C` open the table's views and column chooser (docs/ux.md "Views and
 * columns"), which the palette also reaches as Save view… and Columns….
 */
import type { Command, ScreenCommand } from "./types";

/** [id, title, keys] of each list key; the table reads like the key help it becomes. */
const LIST_KEYS = [
  ["list.down", "Cursor down", ["j", "arrowdown"]], ["list.up", "Cursor up", ["k", "arrowup"]],
  ["list.first", "First row", ["home"]], ["list.last", "Last row", ["end"]],
  ["list.page-down", "Cursor a screen down", ["pagedown"]], ["list.page-up", "Cursor a screen up", ["pageup"]],
  ["list.extend-down", "Extend the selection down", ["shift+arrowdown"]], ["list.extend-up", "Extend the selection up", ["shift+arrowup"]],
  ["list.open", "Open the row's panel", ["enter"]], ["list.select", "Select or unselect the row", ["x"]],
  ["list.select-page", "Select the page", ["*"]], ["list.close", "Close panel, then unselect", ["escape"]],
  ["list.previous-page", "Previous page", ["["]], ["list.next-page", "Next page", ["]"]],
  ["list.views", "Views: apply, save, delete", ["V"]],
  ["list.columns", "Columns: show, order, width", ["C"]],
] as const;

export const LIST_COMMANDS = [
  ...LIST_KEYS.map(([id, title, keys]) => ({ id, title, group: "List", scope: "list", keys }) as const),
  { id: "list.search", title: "Search", group: "List", scope: "search", keys: ["/"] },
  // Only an account's row answers the palette's row commands (app/lib/palette-history.ts lastTaking).
  { id: "list.repeat", title: "Repeat your last row command here", group: "List", scope: "accounts", keys: ["."] },
] as const satisfies readonly ScreenCommand[];

/** The palette's way to the showing table's views and columns: the same handlers as `V` and `C`. */
const tableCommand = (id: string, title: string, screenKey: "list.views" | "list.columns", keywords: readonly string[]): Command => ({
  id,
  title,
  group: "List",
  keywords,
  run: async ({ screenKey: run }) => (run(screenKey) ? undefined : { ok: false, message: "This screen has no table" }),
});

export const LIST_PALETTE_COMMANDS: readonly Command[] = [
  tableCommand("list.save-view", "Save view…", "list.views", ["views", "filters", "layout", "default view"]),
  tableCommand("list.choose-columns", "Columns…", "list.columns", ["hide", "show", "order", "width", "layout"]),
];
