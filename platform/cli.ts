/**
 * Database maintenance:
 *   tsx platform/cli.ts reset [--users N] [--bets N] [--settled-share S]   wipe, migrate, seed
 *   tsx platform/cli.ts seed  [--users N] [--bets N] [--settled-share S]   migrate, top the seed up to N
 *       (S: the part of the seeded bets that is settled history, 0–1, 0.2 by default)
 *   tsx platform/cli.ts set-password <username>        new password from standard input;
 *                                                          signs the admin out everywhere
 * Targets DATABASE_URL when set, else the PGlite directory DATA_DIR. On PostgreSQL the seed
 * streams users and bets with COPY (docs/operations.md "Seeding PostgreSQL at scale").
 */
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { z } from "zod";
import { loadDbEnv, uploadsDirOf } from "./env.js";
import { openCopyingDb } from "./db/copy.js";
import { dbTargetFromEnv, openDb, type Db, type DbTarget } from "./db/index.js";
import { migrate } from "./db/migrate.js";
import { DEFAULT_SEED, DEMO_ACCOUNTS, seed, type SeedOptions } from "./seed.js";
import { findAdminByUsername, updatePassword } from "./modules/admins/repository.js";
import { revokeOtherSessions } from "./modules/auth/repository.js";
import { NewPassword } from "./security/password.js";
import { createRevealer, storePassword, type Revealer } from "./security/reveal.js";

const USAGE =
  "usage: tsx platform/cli.ts <reset|seed> [--users N] [--bets N] [--settled-share S]\n       tsx platform/cli.ts set-password <username>  (password on standard input)";
const Count = z.coerce.number().int().min(0);
const Share = z.coerce.number().min(0).max(1);

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

async function migrateAndSeed(db: Db, revealer: Revealer, options: SeedOptions): Promise<void> {
  const applied = await migrate(db);
  if (applied.length > 0) console.log(`applied migrations: ${applied.join(", ")}`);
  const started = Date.now();
  const summary = await seed(db, revealer, options);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `seeded in ${seconds.toFixed(1)} s (${options.copy ? "COPY" : "inserts"}, ${Math.round((summary.users + summary.bets) / seconds)} users and bets a second): admin #${summary.admins.admin}, staff #${summary.admins.staff}, ` +
      `partner #${summary.admins.partner}; ${summary.users} users, ${summary.bets} sports bets`,
  );
  console.log(
    `demo logins: ${Object.values(DEMO_ACCOUNTS)
      .map((account) => `${account.username} / ${account.password}`)
      .join(", ")}`,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/** How an operator gets into a production database whose seeded passwords no longer work. */
async function setPassword(username: string): Promise<void> {
  const chosen = NewPassword.safeParse(await readStdin());
  if (!chosen.success) throw new Error(chosen.error.issues[0]!.message);
  const password = chosen.data;
  const env = loadDbEnv();
  const db = await openDb(dbTargetFromEnv(env));
  try {
    await migrate(db);
    const admin = await findAdminByUsername(db, username);
    if (!admin) throw new Error(`No admin named ${username}`);
    const stored = await storePassword(password, createRevealer(env));
    await db.transaction().execute(async (trx) => {
      await updatePassword(trx, admin.id, stored);
      await revokeOtherSessions(trx, admin.id);
    });
    console.log(`password set for ${admin.username}; its sessions were signed out`);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { users: { type: "string" }, bets: { type: "string" }, "settled-share": { type: "string" } },
  });
  const command = positionals[0];
  if (command === "set-password" && positionals.length === 2) return setPassword(positionals[1]!);
  if (positionals.length !== 1 || (command !== "reset" && command !== "seed")) throw new Error(USAGE);
  const options: SeedOptions = {
    users: Count.parse(values.users ?? DEFAULT_SEED.users),
    bets: Count.parse(values.bets ?? DEFAULT_SEED.bets),
    ...(values["settled-share"] === undefined ? {} : { settledShare: Share.parse(values["settled-share"]) }),
  };

  const env = loadDbEnv();
  const target = dbTargetFromEnv(env);
  if (command === "reset") {
    if (env.NODE_ENV === "production") throw new Error("Refusing to reset a database with NODE_ENV=production");
    await wipe(target);
  }
  // PostgreSQL: one connection, whose transaction the COPY streams join.
  const { db, copy } = target.kind === "postgres" ? await openCopyingDb(target) : { db: await openDb(target), copy: undefined };
  try {
    await migrateAndSeed(db, createRevealer(env), { ...options, copy, uploadsDir: uploadsDirOf(env) });
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
