/**
 * /sessions (issue 30, ADR 0010): `e` ends the cursor session, `E` all the operator's other
 * sessions, each after one confirmation. An ended session is refused on its next request. (Not
 * `x`: on every list screen it selects the row, docs/ux.md "Keys".)
 */
import type { ScreenCommand } from "./types";

const desk = (id: string, title: string, keys: string[]) => ({ id, title, group: "Sessions", scope: "sessions", keys }) as const satisfies ScreenCommand;

export const SESSION_SCREEN_COMMANDS = [
  desk("sessions.end", "End the cursor session (signed out on its next request)", ["e"]),
  desk("sessions.end-others", "End all your other sessions", ["E"]),
] as const;
