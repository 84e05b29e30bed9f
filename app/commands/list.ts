/** The list kit's keys (docs/ux.md "Keys"), on every screen with the `list` scope; `/` where there is a search. */
import type { ScreenCommand } from "./types";

/** [id, title, keys] of each list key; the table reads like the key help it becomes. */
const LIST_KEYS = [
  ["list.down", "Cursor down", ["j", "arrowdown"]], ["list.up", "Cursor up", ["k", "arrowup"]],
  ["list.first", "First row", ["home"]], ["list.last", "Last row", ["end"]],
  ["list.page-down", "Cursor a screen down", ["pagedown"]], ["list.page-up", "Cursor a screen up", ["pageup"]],
  ["list.extend-down", "Extend the selection down", ["shift+arrowdown"]], ["list.extend-up", "Extend the selection up", ["shift+arrowup"]],
  ["list.open", "Open the row's panel", ["enter"]], ["list.select", "Select or unselect the row", ["x"]],
  ["list.select-page", "Select the page", ["*"]], ["list.close", "Close the panel, then clear the selection", ["escape"]],
  ["list.previous-page", "Previous page", ["["]], ["list.next-page", "Next page", ["]"]],
  ["list.repeat", "Repeat the last row command on the cursor row", ["."]],
] as const;

export const LIST_COMMANDS = [
  ...LIST_KEYS.map(([id, title, keys]) => ({ id, title, group: "List", scope: "list", keys }) as const),
  { id: "list.search", title: "Search", group: "List", scope: "search", keys: ["/"] },
] as const satisfies readonly ScreenCommand[];
