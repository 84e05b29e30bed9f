import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPglite } from "./blank-cluster";
import { LOCK_FILE } from "./data-dir-lock";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** A fresh directory that its console has locked before opening it (db/data-dir-lock.ts). */
async function locked(dir: string, holder: string): Promise<string> {
  await mkdir(dir);
  await writeFile(join(dir, LOCK_FILE), holder);
  return dir;
}

describe("a new PGlite database", () => {
  it("starts from a blank cluster made once, never replaces a database already there, a lock, or an unsound copy's loss", async () => {
    const root = await mkdtemp(join(tmpdir(), "blank-cluster-"));
    const file = join(root, "cache", "blank.tar");
    await mkdir(join(root, "cache"));
    await writeFile(file, "not a cluster");

    // An unsound copy: the database still opens (by initdb), its lock stays, and the copy is dropped.
    const first = await locked(join(root, "first"), "42 7");
    const a = await createPglite({}, first, { file });
    await a.exec("create table kept (value text); insert into kept values ('mine')");
    expect(await readFile(join(first, LOCK_FILE), "utf8")).toBe("42 7");
    expect(await exists(file)).toBe(false);

    // The next new database makes a sound copy (in memory, where no lock lies) and starts from it, its own lock kept.
    const second = await locked(join(root, "second"), "99 9");
    const b = await createPglite({}, second, { file });
    expect((await stat(file)).size).toBeGreaterThan(1_000_000);
    expect(await readFile(join(second, LOCK_FILE), "utf8")).toBe("99 9");
    expect((await b.query("select count(*)::int as n from pg_tables where tablename = 'kept'")).rows).toEqual([{ n: 0 }]);
    await b.close();

    // Another process's database from the kept file: blank, with no lock of anyone's in it.
    const c = await createPglite({}, join(root, "third"), { file });
    expect((await c.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect(await exists(join(root, "third", LOCK_FILE))).toBe(false);
    await c.close();

    // The first directory holds a database: it opens as it is.
    await a.close();
    const again = await createPglite({}, first, { file });
    expect((await again.query("select value from kept")).rows).toEqual([{ value: "mine" }]);
    await again.close();
    await rm(root, { recursive: true, force: true });
  }, 60_000);
});
