/**
 * /jobs (issue 19): `r` resumes the cursor job, stored when it was confirmed. The server checks
 * what was in flight when it stopped; only items with no answer are sent. `d` downloads a file
 * job's result CSV (issue 34).
 */
import type { ScreenCommand } from "./types";

export const JOB_SCREEN_COMMANDS = [
  { id: "jobs.resume", title: "Resume the cursor job (items with an answer are never sent again)", group: "Bulk", scope: "jobs", keys: ["r"] },
  // Issue 34: a job made from a file, every line of the file with its outcome.
  { id: "jobs.result", title: "Result CSV of the cursor job (a job from a file)", group: "Bulk", scope: "jobs", keys: ["d"] },
] as const satisfies readonly ScreenCommand[];
