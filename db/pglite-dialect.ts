/**
 * A Kysely dialect for PGlite (embedded PostgreSQL in WebAssembly). PGlite is one
 * connection, so the driver hands it to one holder at a time: a transaction owns it from
 * BEGIN to COMMIT and no other query can slip in between. Code inside a transaction must
 * therefore use the transaction object, never the outer `Db`, or it waits forever.
 */
import type { PGlite, Results } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/** A FIFO lock: `acquire` resolves when every earlier holder has called its release. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return acquired;
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  readonly #mutex = new Mutex();
  readonly #releases = new Map<DatabaseConnection, () => void>();

  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.acquire();
    this.#releases.set(this.#connection, release);
    return this.#connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#releases.get(connection);
    this.#releases.delete(connection);
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const options = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode,
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(["begin", ...options].join(" ")));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

const AFFECTS_ROWS = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Like node-postgres, a query without parameters goes through the simple protocol,
    // so a migration script with several statements runs as one call.
    const result: Results<R> | undefined =
      compiled.parameters.length === 0
        ? (await this.pglite.exec(compiled.sql)).at(-1) as Results<R> | undefined
        : await this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    if (!result) return { rows: [] };
    return {
      rows: result.rows,
      numAffectedRows:
        result.command && AFFECTS_ROWS.has(result.command) ? BigInt(result.rowCount ?? 0) : undefined,
    };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite does not support streaming queries");
  }
}
