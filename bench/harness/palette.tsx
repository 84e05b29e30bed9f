/** The real Palette with the registry's commands plus cached accounts: 10,000 entries in all. */
import { createRoot } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { rememberAccounts } from "../../app/commands/account-cache";
import { Palette } from "../../app/components/ui/Palette";
import { commandsFor, PICK_SOURCES } from "../../app/commands/registry";
import type { CommandContext } from "../../app/commands/types";

const operator = { username: "admin", role: 1 as const, flags: {} };
const commands = commandsFor(operator);
rememberAccounts(
  Array.from({ length: 10_000 - commands.length }, (_, i) => ({
    id: String(i + 1),
    username: `${i % 2 ? "user" : "panel"}${String(i + 1).padStart(5, "0")}`,
    mode: i % 2 ? ("users" as const) : ("partners" as const),
    balance: i * 3,
  })),
);
const noop = () => {};
const context: CommandContext = {
  operator,
  selection: null,
  location: { pathname: "/", search: "" },
  navigate: noop,
  toggleSidebar: noop,
  openPalette: noop,
  openHelp: noop,
  toggleMute: noop,
  logout: noop,
  startBulk: noop,
  download: noop,
  screenKey: () => false,
  submitAction: async () => ({ ok: true, message: "" }),
};

const router = createMemoryRouter([
  { path: "/", element: <Palette commands={commands} sources={PICK_SOURCES} context={context} onClose={noop} /> },
]);

createRoot(document.getElementById("root")!).render(<RouterProvider router={router} />);
