/**
 * Opens the console's own store (ADR 0008) and brings its schema up to date: embedded PGlite in
 * CONSOLE_DATA_DIR, or the PostgreSQL server of CONSOLE_DATABASE_URL that several console
 * instances share. server.ts opens it once and hands it to every loader and action through the
 * load context; the Remix build never imports this file (its migrations are read from disk).
 * An embedded store is this process's alone while it is open (db/data-dir-lock.ts): a second
 * console or `npm run audit:verify` is refused with DataDirInUse rather than open it beside it.
 */
import { lockDataDir } from "../../../db/data-dir-lock.js";
import { openDatabase, runMigrations, type DbTarget } from "../../../db/index.js";
import type { Env } from "../env.server";
import type { ConsoleDatabase, ConsoleStore } from "./schema";

export const storeTargetOf = (env: Pick<Env, "CONSOLE_DATABASE_URL" | "CONSOLE_DATA_DIR">): DbTarget =>
  env.CONSOLE_DATABASE_URL ? { kind: "postgres", url: env.CONSOLE_DATABASE_URL } : { kind: "pglite", dataDir: env.CONSOLE_DATA_DIR };

export async function openConsoleStore(target: DbTarget): Promise<ConsoleStore> {
  const unlock = target.kind === "pglite" && target.dataDir ? await lockDataDir(target.dataDir) : async () => {};
  const store = await openDatabase<ConsoleDatabase>(target).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const destroy = store.destroy.bind(store);
  store.destroy = () => destroy().finally(unlock);
  try {
    // Its own bookkeeping table, so the store may even live in the platform's database.
    await runMigrations(store, { dir: new URL("./migrations/", import.meta.url), table: "console_migrations" });
  } catch (error) {
    await store.destroy();
    throw error;
  }
  return store;
}
