/**
 * Applies `migrations/NNN-name.sql` in order, each once, recorded in schema_migrations.
 * All pending files run in ONE transaction under an advisory lock, so two instances
 * starting together neither race nor leave a half-migrated schema.
 */
import { readdir, readFile } from "node:fs/promises";
import { sql } from "kysely";
import type { Db } from "./index.js";

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);
const MIGRATION_FILE = /^\d{3}-[a-z0-9-]+\.sql$/;

/** Returns the names of the migrations it applied (empty when the schema was current). */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => MIGRATION_FILE.test(name)).sort();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('betdesk.migrate'))`.execute(trx);
    await sql`
      create table if not exists schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      )`.execute(trx);
    const applied = new Set((await trx.selectFrom("schema_migrations").select("name").execute()).map((row) => row.name));
    const unknown = [...applied].filter((name) => !files.includes(name));
    if (unknown.length > 0) {
      throw new Error(`The database has migrations this build does not know (${unknown.join(", ")}); deploy a newer build`);
    }
    const pending = files.filter((name) => !applied.has(name));
    for (const name of pending) {
      await sql.raw(await readFile(new URL(name, MIGRATIONS_DIR), "utf8")).execute(trx);
      await trx.insertInto("schema_migrations").values({ name }).execute();
    }
    return pending;
  });
}
