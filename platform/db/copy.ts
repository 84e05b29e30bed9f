/**
 * Bulk loading for the seed (docs/operations.md "Seeding PostgreSQL at scale"): Kysely
 * over ONE connection, so that the seed's transaction and its `COPY … FROM STDIN` streams
 * (pg-copy-streams) run on the same connection, in the same transaction.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { postgresConfig, type DbTarget } from "../../db/index.js";
import type { Db } from "./index.js";
import type { Database } from "./schema.js";

export type CopyValue = string | number | bigint | boolean | Date | null;
/** Streams rows, each its values in `columns`' order, into `table` with COPY FROM STDIN (text format). */
export type CopyRows = (table: string, columns: readonly string[], rows: Iterable<readonly CopyValue[]>) => Promise<void>;

const ROWS_PER_CHUNK = 1000;
const SPECIAL = /[\\\t\n\r]/;

/** One value in COPY's text format: \N for null, backslash escapes in text. */
function field(value: CopyValue): string {
  if (value === null) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "string") return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]!) : value;
}

function* lines(rows: Iterable<readonly CopyValue[]>): Generator<string> {
  let chunk: string[] = [];
  for (const row of rows) {
    chunk.push(`${row.map(field).join("\t")}\n`);
    if (chunk.length === ROWS_PER_CHUNK) {
      yield chunk.join("");
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk.join("");
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The database on one connection, and COPY on that connection; `db.destroy()` closes it. */
export async function openCopyingDb(target: Extract<DbTarget, { kind: "postgres" }>): Promise<{ db: Db; copy: CopyRows }> {
  const client = new pg.Client(postgresConfig(target));
  await client.connect();
  // A pool of this one client: Kysely releases it after each use and it stays open until `end`.
  const pool = { connect: async () => Object.assign(client, { release: () => {} }), end: () => client.end() };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const copy: CopyRows = async (table, columns, rows) => {
    const stream = client.query(copyFrom(`copy ${ident(table)} (${columns.map(ident).join(", ")}) from stdin`));
    await pipeline(Readable.from(lines(rows)), stream);
  };
  return { db, copy };
}
