/**
 * The platform's database: Kysely over embedded PGlite (the default) or a PostgreSQL
 * server (DATABASE_URL). One SQL dialect for both, and both drivers read the same JS
 * types (see schema.ts), so code never branches on which one it runs on.
 */
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Env } from "../env.js";
import { PGliteDialect } from "./pglite-dialect.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

export type DbTarget =
  /** `dataDir: null` keeps the database in memory (tests). */
  | { kind: "pglite"; dataDir: string | null }
  /** `schema` sets the search_path of every connection (tests use a throwaway schema). */
  | { kind: "postgres"; url: string; schema?: string };

const INT8_OID = 20;

export function dbTargetFromEnv(env: Pick<Env, "DATABASE_URL" | "DATA_DIR">): DbTarget {
  return env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.DATA_DIR };
}

export async function openDb(target: DbTarget): Promise<Db> {
  if (target.kind === "postgres") {
    if (target.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(target.schema)) {
      throw new Error(`Invalid schema name: ${target.schema}`);
    }
    const pool = new pg.Pool({
      connectionString: target.url,
      options: target.schema ? `-c search_path=${target.schema}` : undefined,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? BigInt : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its server emits here; the pool replaces it on the next
    // checkout, so log instead of letting the unhandled event end the process.
    pool.on("error", (error) => console.warn(`postgres: idle client error: ${error.message}`));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir: target.dataDir ?? undefined,
    // Substring search on usernames (migration 002).
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: (value: string) => BigInt(value) },
  });
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}
