import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPglite } from "./blank-cluster";
import { LOCK_FILE } from "./data-dir-lock";

describe("a new PGlite database", () => {
  it("starts from the kept blank cluster, replaces an unsound one, and never replaces a database already there", async () => {
    const root = await mkdtemp(join(tmpdir(), "blank-cluster-"));
    const cache = { file: join(root, "cache", "blank.tar") };
    await mkdir(join(root, "cache"));
    await writeFile(cache.file, "not a cluster");
    // A directory its console has locked before opening it (db/data-dir-lock.ts).
    const first = join(root, "first");
    await mkdir(first);
    await writeFile(join(first, LOCK_FILE), "42 7");

    // The unsound copy is dropped: initdb runs and leaves a sound copy, and the lock stays.
    const a = await createPglite({}, first, { ...cache });
    await a.exec("create table kept (value text); insert into kept values ('mine')");
    expect((await stat(cache.file)).size).toBeGreaterThan(1_000_000);
    expect(await readFile(join(first, LOCK_FILE), "utf8")).toBe("42 7");

    // Another directory, by another process's reading of the file: a blank database, made before the first wrote.
    const b = await createPglite({}, join(root, "second"), { ...cache });
    expect((await b.query("select count(*)::int as n from pg_tables where tablename = 'kept'")).rows).toEqual([{ n: 0 }]);
    await b.close();

    // The first directory holds a database: it opens as it is.
    await a.close();
    const again = await createPglite({}, first, { ...cache });
    expect((await again.query("select value from kept")).rows).toEqual([{ value: "mine" }]);
    await again.close();
    await rm(root, { recursive: true, force: true });
  }, 60_000);
});
