/** Home's keys (issue 33): `j`/`k` move between its lines, Enter goes to the line's screen. */
import type { ScreenCommand } from "./types";

export const HOME_SCREEN_COMMANDS = [
  { id: "home.down", title: "Next line", group: "View", scope: "home", keys: ["j", "arrowdown"] },
  { id: "home.up", title: "Previous line", group: "View", scope: "home", keys: ["k", "arrowup"] },
  { id: "home.open", title: "Go to the line's screen", group: "View", scope: "home", keys: ["enter"] },
] as const satisfies readonly ScreenCommand[];
