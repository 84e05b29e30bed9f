/**
 * New PGlite databases start from a blank cluster, as initdb leaves it, kept from the first one
 * made: in a new process 1.0–1.3 s and 1.2–1.5 CPU-s against initdb's 2.6–2.9 s and 3.8–4.1 CPU-s
 * (docs/benchmarks.md, "The test suite"). Every server of `npm start` and of the end-to-end runs,
 * and every test database, starts on a fresh directory or in memory.
 *
 * The copy is kept in a file, one per PGlite version, in node_modules/.cache (else in the process):
 * the first database made on a machine makes it, by initdb in memory, where nothing else writes.
 * The file is written whole or not at all (a rename), so processes starting together share it
 * safely. A directory that holds a database is opened as it is, never from the copy.
 */
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { LOCK_FILE } from "./data-dir-lock.js";

/**
 * Where a blank cluster is kept: its file, read at each new database, so that a server does not hold
 * its 40 MB for good; `inProcess` only where no file could be kept (null: none can be).
 */
export type BlankClusterCache = { file: string | null; inProcess?: Blob };

/**
 * This machine's copy for the installed PGlite, beside it in node_modules/.cache/betdesk; where
 * that cannot be told, the process keeps its copy to itself.
 */
function installedCache(): BlankClusterCache {
  try {
    const require = createRequire(import.meta.url);
    const root = dirname(dirname(require.resolve("@electric-sql/pglite")));
    const { name, version } = require(join(root, "package.json")) as { name: string; version: string };
    if (name !== "@electric-sql/pglite") return { file: null };
    return { file: join(dirname(dirname(root)), ".cache", "betdesk", `pglite-${version}-blank-cluster.tar`) };
  } catch {
    return { file: null };
  }
}

const machineCache = installedCache();

/** The kept blank cluster, if any: a file that cannot be read counts as none. */
async function read(cache: BlankClusterCache): Promise<Blob | undefined> {
  if (cache.inProcess || !cache.file) return cache.inProcess;
  return readFile(cache.file).then(
    (bytes) => new Blob([bytes]),
    () => undefined,
  );
}

/**
 * A blank cluster made by initdb in memory, where nothing but initdb writes (a data directory may
 * hold other files already: a console's lock), kept in the cache's file, written whole or not at
 * all, else in the process. Answers the database it was made in, still open, and its copy.
 */
async function makeBlank(options: PGliteOptions, cache: BlankClusterCache): Promise<{ made: PGlite; blank: Blob }> {
  const made = await PGlite.create(options);
  const blank = await made.dumpDataDir("none");
  if (!cache.file || !(await writeWhole(cache.file, blank))) cache.inProcess = blank;
  return { made, blank };
}

/** Writes `blank` to `file` whole (a rename) or not at all; false when it could not. */
async function writeWhole(file: string, blank: Blob): Promise<boolean> {
  const partial = `${file}.${process.pid}`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(partial, new Uint8Array(await blank.arrayBuffer()));
    await rename(partial, file);
    return true;
  } catch {
    await rm(partial, { force: true });
    return false;
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
  let blank = await read(cache);
  if (!blank) {
    const { made, blank: madeBlank } = await makeBlank(options, cache);
    if (!dataDir) return made;
    await made.close();
    blank = madeBlank;
  }
  const where = dataDir ? { dataDir } : {};
  try {
    return await PGlite.create({ ...options, ...where, loadDataDir: blank });
  } catch {
    // An unsound copy: dropped, so that the next new database makes a sound one; this one runs initdb.
    cache.inProcess = undefined;
    if (cache.file) await rm(cache.file, { force: true });
    if (dataDir) await clear(dataDir);
    return PGlite.create({ ...options, ...where });
  }
}
