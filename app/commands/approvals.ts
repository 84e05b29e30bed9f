/**
 * Four-eyes (issue 19, ADR 0009): a checker's keys on /approvals, approve or reject the cursor's
 * held action. Pressing one is the checker's decision: the row shows the whole request first.
 */
import type { ScreenCommand } from "./types";

const desk = (id: string, title: string, keys: string[]) => ({ id, title, group: "Approvals", scope: "approvals", keys }) as const satisfies ScreenCommand;

export const APPROVAL_SCREEN_COMMANDS = [
  desk("approvals.approve", "Approve: perform the cursor's held action (four-eyes)", ["a"]),
  desk("approvals.reject", "Reject: close the cursor's held action unperformed", ["r"]),
] as const;
