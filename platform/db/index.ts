/**
 * The platform's database: Kysely over embedded PGlite (the default) or a PostgreSQL
 * server (DATABASE_URL). One SQL dialect for both, and both drivers read the same JS
 * types (see schema.ts), so code never branches on which one it runs on.
 */
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { Kysely } from "kysely";
import { openDatabase, type DbTarget } from "../../db/index.js";
import type { Env } from "../env.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;
export type { DbTarget };

export function dbTargetFromEnv(env: Pick<Env, "DATABASE_URL" | "DATA_DIR">): DbTarget {
  return env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.DATA_DIR };
}

// Substring search on usernames (migration 002).
export const openDb = (target: DbTarget): Promise<Db> => openDatabase<Database>(target, { extensions: { pg_trgm } });
