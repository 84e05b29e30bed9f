/**
 * New PGlite databases start from a blank cluster, as initdb leaves it, kept from the first one
 * made: in a new process 1.0–1.3 s and 1.2–1.5 CPU-s against initdb's 2.6–2.9 s and 3.8–4.1 CPU-s
 * (docs/benchmarks.md, "The test suite"). Every server of `npm start` and of the end-to-end runs,
 * and every test database, starts on a fresh directory or in memory.
 *
 * The copy is kept in the process and in a file, one per PGlite version, in node_modules/.cache:
 * the first database made on a machine runs initdb and leaves its cluster there before anything
 * writes to it. The file is written whole or not at all (a rename), so processes starting together
 * share it safely. A directory that holds a database is opened as it is, never from the copy.
 */
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { LOCK_FILE } from "./data-dir-lock.js";

/** Where a blank cluster is kept, and the process's own copy of it. */
export type BlankClusterCache = { file: string; kept?: Promise<Blob | undefined> };

/** This machine's copy for the installed PGlite, beside it in node_modules/.cache/betdesk. */
function installedCache(): BlankClusterCache {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const root = entry.slice(0, entry.lastIndexOf("/dist/"));
  const { version } = createRequire(import.meta.url)(join(root, "package.json")) as { version: string };
  return { file: join(dirname(dirname(root)), ".cache", "betdesk", `pglite-${version}-blank-cluster.tar`) };
}

const machineCache = installedCache();

/** The kept blank cluster, if any: a file that cannot be read counts as none. */
function read(cache: BlankClusterCache): Promise<Blob | undefined> {
  cache.kept ??= readFile(cache.file).then(
    (bytes) => new Blob([bytes]),
    () => undefined,
  );
  return cache.kept;
}

/** Keeps `pglite`'s cluster, just made by initdb; a copy that fails changes nothing. */
async function keep(cache: BlankClusterCache, pglite: PGlite): Promise<void> {
  cache.kept = pglite.dumpDataDir("none").catch(() => undefined);
  const blank = await cache.kept;
  if (!blank) return;
  const partial = `${cache.file}.${process.pid}`;
  try {
    await mkdir(dirname(cache.file), { recursive: true });
    await writeFile(partial, new Uint8Array(await blank.arrayBuffer()));
    await rename(partial, cache.file);
  } catch {
    await rm(partial, { force: true });
  }
}

const holdsDatabase = (dataDir: string) =>
  access(join(dataDir, "PG_VERSION")).then(
    () => true,
    () => false,
  );

/** Empties a directory a copy failed to load into, all but its lock (db/data-dir-lock.ts). */
async function clear(dataDir: string): Promise<void> {
  const names = (await readdir(dataDir)).filter((name) => name !== LOCK_FILE);
  await Promise.all(names.map((name) => rm(join(dataDir, name), { recursive: true, force: true })));
}

/** A PGlite database in `dataDir`, or in memory when it is null: the one there, else a new one. */
export async function createPglite(options: PGliteOptions, dataDir: string | null, cache = machineCache): Promise<PGlite> {
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    if (await holdsDatabase(dataDir)) return PGlite.create({ ...options, dataDir });
  }
  const where = dataDir ? { dataDir } : {};
  const blank = await read(cache);
  if (blank) {
    try {
      return await PGlite.create({ ...options, ...where, loadDataDir: blank });
    } catch {
      // An unsound copy: dropped, so that this database runs initdb and leaves a sound one.
      cache.kept = Promise.resolve(undefined);
      await rm(cache.file, { force: true });
      if (dataDir) await clear(dataDir);
    }
  }
  const pglite = await PGlite.create({ ...options, ...where });
  await keep(cache, pglite);
  return pglite;
}
