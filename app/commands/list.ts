/** The list kit's keys (UX.md), on every screen with the `list` scope; `/` where there is a search. */
import type { ScreenCommand } from "./types";

const key = (id: string, title: string, keys: string[], scope: ScreenCommand["scope"] = "list") =>
  ({ id, title, group: "List", scope, keys }) as const satisfies ScreenCommand;

export const LIST_COMMANDS = [
  key("list.down", "Cursor down", ["j", "arrowdown"]),
  key("list.up", "Cursor up", ["k", "arrowup"]),
  key("list.first", "First row", ["home"]),
  key("list.last", "Last row", ["end"]),
  key("list.page-down", "Cursor a screen down", ["pagedown"]),
  key("list.page-up", "Cursor a screen up", ["pageup"]),
  key("list.extend-down", "Extend the selection down", ["shift+arrowdown"]),
  key("list.extend-up", "Extend the selection up", ["shift+arrowup"]),
  key("list.open", "Open the row's panel", ["enter"]),
  key("list.select", "Select or unselect the row", ["x"]),
  key("list.select-page", "Select the page", ["*"]),
  key("list.close", "Close the panel, then clear the selection", ["escape"]),
  key("list.previous-page", "Previous page", ["["]),
  key("list.next-page", "Next page", ["]"]),
  key("list.search", "Search", ["/"], "search"),
] as const;
