/**
 * One process at a time in a PGlite data directory. PGlite is one process's files and locks
 * nothing itself: a second process opening them (a second console, `npm run audit:verify`) reads a
 * stale state and, when it closes, can overwrite what the first wrote since. So whoever opens the
 * directory first writes who it is into LOCK_FILE there and removes it on close; a lock naming a
 * process that no longer runs (killed, crashed) is taken over.
 */
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const LOCK_FILE = "betdesk.pid";

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `${dataDir} is in use by process ${pid}: an embedded database is opened by one process at a time ` +
        `(if that process is not a console, remove ${join(dataDir, LOCK_FILE)})`,
    );
  }
}

/**
 * When a process started, where Linux's /proc tells it (else ""): with the pid it names one
 * process, so a pid reused after a restart (a container's console is often the same pid each time)
 * is not taken for the lock's holder.
 */
async function startOf(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Field 22, starttime; fields 3 on follow the parenthesised command name.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
}

async function holds(pid: number, start: string): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return start === "" || (await startOf(pid)) === start;
}

/** Takes `dataDir` for this process (creating it), or throws DataDirInUse. Resolves to the release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lock = join(dataDir, LOCK_FILE);
  const me = `${process.pid} ${await startOf(process.pid)}\n`;
  const mine = `${lock}.${process.pid}`;
  // Written whole first, then linked: a reader never sees a lock without its holder.
  await writeFile(mine, me);
  try {
    for (;;) {
      try {
        await link(mine, lock);
        return async () => {
          if ((await readFile(lock, "utf8").catch(() => "")) === me) await rm(lock, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const [pid = "", start = ""] = (await readFile(lock, "utf8").catch(() => "")).trim().split(" ");
      if (await holds(Number(pid), start)) throw new DataDirInUse(dataDir, Number(pid));
      await rm(lock, { force: true });
    }
  } finally {
    await rm(mine, { force: true });
  }
}
