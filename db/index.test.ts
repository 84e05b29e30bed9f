import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./index";

const WAL_SEGMENT_BYTES = 16 * 1024 * 1024;

describe("an embedded database", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("starts each new WAL segment empty rather than writing 16 MB of zeros first, and keeps what it wrote", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "betdesk-wal-"));
    dirs.push(dataDir);
    const db = await openDatabase<{ filler: { id: number; text: string } }>({ kind: "pglite", dataDir });
    await sql`create table filler (id serial primary key, text text not null)`.execute(db);
    const walBytes = async () => Number((await sql<{ bytes: string }>`select pg_current_wal_lsn() - '0/0' as bytes`.execute(db)).rows[0]!.bytes);
    // Into the next segment by a little: its file is then mostly not written yet.
    const target = (Math.floor((await walBytes()) / WAL_SEGMENT_BYTES) + 1) * WAL_SEGMENT_BYTES + 256 * 1024;
    let rows = 0;
    while ((await walBytes()) < target) {
      await sql`insert into filler (text) select repeat('x', 1000) from generate_series(1, 1000)`.execute(db);
      rows += 1000;
    }
    const segments = (await readdir(join(dataDir, "pg_wal"))).filter((name) => /^[0-9A-F]{24}$/.test(name)).sort();
    const newest = await stat(join(dataDir, "pg_wal", segments.at(-1)!));
    expect(newest.size).toBe(WAL_SEGMENT_BYTES);
    // Zero-filled, every block of it would be on disk.
    expect(newest.blocks * 512).toBeLessThan(WAL_SEGMENT_BYTES / 4);
    await db.destroy();

    const reopened = await openDatabase<{ filler: { id: number; text: string } }>({ kind: "pglite", dataDir });
    const { count } = await reopened.selectFrom("filler").select(sql<string>`count(*)`.as("count")).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(rows);
    await reopened.destroy();
  });
});
