/**
 * Database maintenance:
 *   tsx platform/db/cli.ts reset [--users N] [--bets N]   wipe, migrate, seed
 *   tsx platform/db/cli.ts seed  [--users N] [--bets N]   migrate, top the seed up to N
 * Targets DATABASE_URL when set, else the PGlite directory DATA_DIR.
 */
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { z } from "zod";
import { loadDbEnv } from "../env.js";
import { dbTargetFromEnv, openDb, type Db, type DbTarget } from "./index.js";
import { migrate } from "./migrate.js";
import { DEFAULT_SEED, DEMO_ACCOUNTS, seed, type SeedOptions } from "./seed.js";

const USAGE = "usage: tsx platform/db/cli.ts <reset|seed> [--users N] [--bets N]";
const Count = z.coerce.number().int().min(0);

/** Drops everything: the PGlite directory, or the PostgreSQL schema in use. */
async function wipe(target: DbTarget): Promise<void> {
  if (target.kind === "pglite") {
    if (target.dataDir) await rm(target.dataDir, { recursive: true, force: true });
    return;
  }
  const db = await openDb(target);
  try {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(trx);
      const schema = sql.id(rows[0]!.schema);
      await sql`drop schema ${schema} cascade`.execute(trx);
      await sql`create schema ${schema}`.execute(trx);
    });
  } finally {
    await db.destroy();
  }
}

async function migrateAndSeed(db: Db, options: SeedOptions): Promise<void> {
  const applied = await migrate(db);
  if (applied.length > 0) console.log(`applied migrations: ${applied.join(", ")}`);
  const started = Date.now();
  const summary = await seed(db, options);
  console.log(
    `seeded in ${Date.now() - started} ms: admin #${summary.admins.admin}, staff #${summary.admins.staff}, ` +
      `partner #${summary.admins.partner}; ${summary.users} users, ${summary.bets} sports bets`,
  );
  console.log(
    `demo logins: ${Object.values(DEMO_ACCOUNTS)
      .map((account) => `${account.username} / ${account.password}`)
      .join(", ")}`,
  );
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { users: { type: "string" }, bets: { type: "string" } },
  });
  const command = positionals[0];
  if (positionals.length !== 1 || (command !== "reset" && command !== "seed")) throw new Error(USAGE);
  const options: SeedOptions = {
    users: Count.parse(values.users ?? DEFAULT_SEED.users),
    bets: Count.parse(values.bets ?? DEFAULT_SEED.bets),
  };

  const env = loadDbEnv();
  const target = dbTargetFromEnv(env);
  if (command === "reset") {
    if (env.NODE_ENV === "production") throw new Error("Refusing to reset a database with NODE_ENV=production");
    await wipe(target);
  }
  const db = await openDb(target);
  try {
    await migrateAndSeed(db, options);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
