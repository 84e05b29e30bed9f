/**
 * /jobs (issue 19): `r` resumes the cursor job, stored when it was confirmed. The server checks
 * what was in flight when it stopped; only items with no answer are sent.
 */
import type { ScreenCommand } from "./types";

export const JOB_SCREEN_COMMANDS = [
  { id: "jobs.resume", title: "Resume the cursor job (items with an answer are never sent again)", group: "Bulk", scope: "jobs", keys: ["r"] },
] as const satisfies readonly ScreenCommand[];
