/**
 * What the platform's database and the console's store share (ADR 0008): one way to open Kysely
 * over embedded PGlite or a PostgreSQL server, and one migration runner. Both drivers read int8
 * as bigint, so code never branches on which one it runs on. app/ and platform/ may import this
 * folder; it imports neither.
 */
import { readdir, readFile } from "node:fs/promises";
import type { Extensions } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { createPglite } from "./blank-cluster.js";
import { PGliteDialect } from "./pglite-dialect.js";

export { PGliteDialect };

export type DbTarget =
  /** `dataDir: null` keeps the database in memory (tests). */
  | { kind: "pglite"; dataDir: string | null }
  /** `schema` sets the search_path of every connection (tests use a throwaway schema). */
  | { kind: "postgres"; url: string; schema?: string };

const INT8_OID = 20;

/** A pg client's settings for a PostgreSQL target: its schema as the search_path, int8 read as bigint. */
export function postgresConfig(target: Extract<DbTarget, { kind: "postgres" }>): pg.ClientConfig {
  if (target.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(target.schema)) {
    throw new Error(`Invalid schema name: ${target.schema}`);
  }
  return {
    connectionString: target.url,
    options: target.schema ? `-c search_path=${target.schema}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? BigInt : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

/** The PostgreSQL pool under each database opened here; PGlite has none (one connection, no queue to watch). */
const pools = new WeakMap<Kysely<any>, pg.Pool>();

/** Queries waiting for a pooled connection now: the metrics' database pool waits. */
export const poolWaiting = (db: Kysely<any>): number => pools.get(db)?.waitingCount ?? 0;

export async function openDatabase<Schema>(target: DbTarget, { extensions }: { extensions?: Extensions } = {}): Promise<Kysely<Schema>> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool(postgresConfig(target));
    // An idle client that loses its server emits here; the pool replaces it on the next
    // checkout, so log instead of letting the unhandled event end the process.
    pool.on("error", (error) => console.warn(`postgres: idle client error: ${error.message}`));
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  const pglite = await createPglite({ extensions, parsers: { [INT8_OID]: (value: string) => BigInt(value) } }, target.dataDir);
  // PGlite runs no checkpointer to recycle WAL segments: every 16 MB of WAL starts a new file, which PostgreSQL fills
  // with zeros first by default, through PGlite's file system a 25–60 ms stall of the whole process (a console writes
  // 16 MB every three or four settlement jobs of 1,000 bets; docs/benchmarks.md, "Settle market…"). Created empty
  // instead, a segment is written only as the WAL reaches it. PGlite's one session keeps the setting.
  await pglite.exec("set wal_init_zero = off");
  return new Kysely<Schema>({ dialect: new PGliteDialect(pglite) });
}

const MIGRATION_FILE = /^\d{3}-[a-z0-9-]+\.sql$/;

/**
 * Applies `dir`'s `NNN-name.sql` files in order, each once, recorded in `table`. All pending
 * files run in ONE transaction under an advisory lock named after `table`, so two instances
 * starting together neither race nor leave a half-migrated schema. Returns the names applied.
 */
export async function runMigrations(db: Kysely<any>, { dir, table }: { dir: URL; table: string }): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`betdesk.migrate.${table}`}))`.execute(trx);
    await sql`create table if not exists ${sql.table(table)} (name text primary key, applied_at timestamptz not null default now())`.execute(trx);
    const applied = new Set((await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(trx)).rows.map((row) => row.name));
    const unknown = [...applied].filter((name) => !files.includes(name));
    if (unknown.length > 0) {
      throw new Error(`The database has migrations this build does not know (${unknown.join(", ")}); deploy a newer build`);
    }
    const pending = files.filter((name) => !applied.has(name));
    for (const name of pending) {
      await sql.raw(await readFile(new URL(name, dir), "utf8")).execute(trx);
      await sql`insert into ${sql.table(table)} (name) values (${name})`.execute(trx);
    }
    return pending;
  });
}
