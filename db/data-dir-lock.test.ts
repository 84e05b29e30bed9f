import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirInUse, LOCK_FILE, lockDataDir } from "./data-dir-lock.js";

const freshDir = async () => join(await mkdtemp(join(tmpdir(), "data-dir-lock-")), "db");

describe("lockDataDir", () => {
  it("refuses a directory a running process holds, this one included, until it is released", async () => {
    const dir = await freshDir();
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirInUse);
    await expect(lockDataDir(dir)).rejects.toThrow(`in use by process ${process.pid}`);
    await release();
    const again = await lockDataDir(dir);
    await again();
  });

  it("takes over the lock of a process that no longer runs, and of a pid reused by another process", async () => {
    const dir = await freshDir();
    await (await lockDataDir(dir))();
    // A pid above Linux's largest, so never running; then this process's pid with another start time.
    for (const stale of ["4194305 123\n", `${process.pid} 1\n`]) {
      await writeFile(join(dir, LOCK_FILE), stale);
      const release = await lockDataDir(dir);
      expect(await readFile(join(dir, LOCK_FILE), "utf8")).toMatch(new RegExp(`^${process.pid} `));
      await release();
    }
  });
});
