/**
 * Seeding at scale (docs/operations.md "Seeding PostgreSQL at scale"): on PostgreSQL the seed streams users
 * and bets with COPY (platform/db/copy.ts). It must keep the money invariants, top up like the
 * insert path, and write the same book as the insert path PGlite takes.
 */
import { sql } from "kysely";
import { describe, expect, inject, it } from "vitest";
import { openCopyingDb } from "../../platform/db/copy.js";
import { openDb, type Db } from "../../platform/db/index.js";
import { migrate } from "../../platform/db/migrate.js";
import { checkMoneyInvariants, type InvariantReport } from "../../platform/modules/ledger/invariants.js";
import { seed, type SeedOptions } from "../../platform/seed.js";
import { createRevealer } from "../../platform/security/reveal.js";
import { testEnv } from "./support/platform.js";
import { throwawaySchemas } from "./support/schemas.js";

const postgres = inject("postgres");
const revealer = createRevealer(testEnv());
const SOUND = { balancesOffTheirEntries: 0, entriesOffTheirRunningSum: 0, transfersNotBalanced: 0, exposureNotReserved: 0, pendingCountsOff: 0, positionsOff: 0, bookTotalsOff: 0, bettorsOff: 0, resultsOff: 0, userCountsOff: 0, rollupOff: 0 } satisfies InvariantReport;
/** Seeding runs for seconds, not milliseconds: more room than the default per test. */
const SEEDING = 180_000;

const opened: Db[] = [];
// Databases close before their schemas go.
const freshSchema = throwawaySchemas("betdesk_seed", { before: async () => void (await Promise.all(opened.map((db) => db.destroy()))) });

async function seeded(db: Db, options: SeedOptions): Promise<Db> {
  opened.push(db);
  await migrate(db);
  await seed(db, revealer, options);
  return db;
}

/**
 * A digest of the book as seeded, users named by username: ids of users may differ (an insert
 * that skips an existing username still draws an id), and timestamps follow the moment of seeding.
 */
async function bookOf(db: Db) {
  const digest = async (query: ReturnType<typeof sql<{ digest: string }>>) => (await query.execute(db)).rows[0]!.digest;
  return {
    users: await digest(sql`select md5(string_agg(concat_ws(',', username, parent_id, balance, bonus, login_enabled, bet_enabled, permissions::text), ';' order by username)) as digest from users`),
    bets: await digest(sql`
      select md5(string_agg(concat_ws(',', u.username, event_id, market_id, runner, is_back, price, odds, amount, exposure, status, profit, loss), ';' order by b.id)) as digest
        from sports_bets b join users u on u.id = b.user_id`),
    results: await digest(sql`
      select md5(string_agg(concat_ws(',', r.bet_id, game, u.username, house_result, chain::text), ';' order by r.bet_id)) as digest
        from bet_results r join users u on u.id = r.user_id`),
    positions: await digest(sql`
      select md5(string_agg(concat_ws(',', market_id, runner, line, u.username, if_won, if_lost, stake, bets), ';' order by market_id, runner, line, u.username)) as digest
        from market_positions p join users u on u.id = p.user_id`),
    counts: await digest(sql`
      select md5(string_agg(concat_ws(',', coalesce('user:' || u.username, c.key), n), ';' order by coalesce('user:' || u.username, c.key))) as digest
        from sports_pending_counts c left join users u on c.key = 'user:' || u.id`),
    balances: await digest(sql`select concat_ws(',', (select balance from admins where role = 1), (select string_agg(balance::text, ',' order by name) from system_accounts)) as digest`),
  };
}

describe("seeding", () => {
  it(
    "through inserts (PGlite) keeps the money invariants",
    async () => {
      const db = await seeded(await openDb({ kind: "pglite", dataDir: null }), { users: 300, bets: 3_000 });
      expect(await checkMoneyInvariants(db)).toEqual(SOUND);
    },
    SEEDING,
  );

  it.runIf(postgres)(
    "through COPY (PostgreSQL) keeps the money invariants, tops up, and writes the book the inserts write",
    async () => {
      const url = postgres!.url;
      const copying = await openCopyingDb({ kind: "postgres", url, schema: await freshSchema(url) });
      const copied = await seeded(copying.db, { users: 1_000, bets: 10_000, copy: copying.copy });
      expect(await checkMoneyInvariants(copied)).toEqual(SOUND);
      const counted = await sql<{ users: bigint; bets: bigint; pending: bigint }>`
        select (select count(*) from users) as users, (select count(*) from sports_bets) as bets,
               (select count(*) from sports_bets where status = 'PENDING') as pending`.execute(copied);
      expect(counted.rows[0]).toMatchObject({ users: 1_000n, bets: 10_000n });
      expect(counted.rows[0]!.pending).toBeGreaterThan(0n);

      await seed(copied, revealer, { users: 1_200, bets: 12_000, copy: copying.copy });
      expect(await checkMoneyInvariants(copied)).toEqual(SOUND);
      // Seeding what is there already writes nothing.
      const transfers = async () => (await copied.selectFrom("ledger_transfers").select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow()).n;
      const before = await transfers();
      await seed(copied, revealer, { users: 1_200, bets: 12_000, copy: copying.copy });
      expect(await transfers()).toBe(before);

      // The same two seedings through inserts (bet i's bettor depends on the user count asked).
      const inserted = await seeded(await openDb({ kind: "postgres", url, schema: await freshSchema(url) }), { users: 1_000, bets: 10_000 });
      await seed(inserted, revealer, { users: 1_200, bets: 12_000 });
      expect(await bookOf(copied)).toEqual(await bookOf(inserted));
    },
    SEEDING,
  );
});
