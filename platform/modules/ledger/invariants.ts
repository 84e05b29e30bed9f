/**
 * The money invariants as SQL checks over the whole database (ledger/service.ts states them):
 * each check counts the rows that break it, so a sound database answers zero everywhere. Run
 * before the PostgreSQL benchmark measures (bench/pg/index.ts) and by the seed's tests.
 */
import { sql } from "kysely";
import type { Db } from "../../db/index.js";

const CHECKS = {
  /** Accounts (admins, users, system accounts) whose balance is not the sum of their entries. */
  balancesOffTheirEntries: sql`
    with held as (
      select 'admin' as kind, id, balance from admins
      union all select 'user', id, balance from users
      union all select 'system', id, balance from system_accounts),
    entries as (select account_kind as kind, account_id as id, sum(amount) as total from ledger_entries group by 1, 2)
    select count(*) from held full join entries using (kind, id) where coalesce(held.balance, 0) <> coalesce(entries.total, 0)`,
  /** Entries whose balance_after is not their account's running sum (in entry order). */
  entriesOffTheirRunningSum: sql`
    select count(*) from (
      select balance_after, sum(amount) over (partition by account_kind, account_id order by id) as running from ledger_entries) e
     where balance_after <> running`,
  /** Transfers whose legs do not sum to zero, or that have fewer than two. */
  transfersNotBalanced: sql`
    select count(*) from ledger_transfers t left join (select transfer_id, sum(amount) as total, count(*) as legs from ledger_entries group by 1) e on e.transfer_id = t.id
     where coalesce(e.total, 0) <> 0 or coalesce(e.legs, 0) < 2`,
  /** The exposure account against the exposure its pending bets reserve (0 or 1). */
  exposureNotReserved: sql`
    select count(*) from system_accounts where name = 'bet-exposure'
       and balance <> (select coalesce(sum(exposure), 0) from sports_bets where status = 'PENDING')`,
  /** Kept pending counts, stakes and exposures (all, per event, market, user, sport) that differ from the bets. */
  pendingCountsOff: sql`
    with actual as (
      select key, count(*) as n, sum(amount) as stake, sum(exposure) as exposure from sports_bets b,
             unnest(array['all', 'event:' || event_id, 'market:' || market_id, 'user:' || user_id, 'sport:' || sport]) as key
       where status = 'PENDING' and key is not null group by key)
    select count(*) from actual full join sports_pending_counts kept using (key) where coalesce(actual.n, 0) <> coalesce(kept.n, 0)
        or coalesce(actual.stake, 0) <> coalesce(kept.stake, 0) or coalesce(actual.exposure, 0) <> coalesce(kept.exposure, 0)`,
  /** Market book positions whose open stake or bet count differs from their open bets. */
  positionsOff: sql`
    with actual as (
      select market_id, runner, case when market_type = 'fancy' then price else 0 end as line, user_id, sum(amount) as stake, count(*) as bets
        from sports_bets where status = 'PENDING' and market_id is not null group by 1, 2, 3, 4)
    select count(*) from actual full join market_positions p using (market_id, runner, line, user_id)
     where coalesce(actual.stake, 0) <> coalesce(p.stake, 0) or coalesce(actual.bets, 0) <> coalesce(p.bets, 0)`,
  /** Kept market book totals (migration 016) that differ from their positions' sums. */
  bookTotalsOff: sql`
    with actual as (
      select market_id, runner, line, sum(if_won) as if_won, sum(if_lost) as if_lost, sum(stake) as stake, sum(bets) as bets
        from market_positions group by 1, 2, 3)
    select count(*) from actual full join market_book_totals t using (market_id, runner, line)
     where coalesce(actual.if_won, 0) <> coalesce(t.if_won, 0) or coalesce(actual.if_lost, 0) <> coalesce(t.if_lost, 0)
        or coalesce(actual.stake, 0) <> coalesce(t.stake, 0) or coalesce(actual.bets, 0) <> coalesce(t.bets, 0)`,
  /** Kept bettors (migration 017): each (event, user) row against its positions, each event's count against its rows. */
  bettorsOff: sql`
    select (select count(*) from (select event_id, user_id, count(*) as positions from market_positions group by 1, 2) actual
              full join market_event_bettors kept using (event_id, user_id)
             where coalesce(actual.positions, 0) <> coalesce(kept.positions, 0))
         + (select count(*) from (select event_id, count(*) as n from market_event_bettors group by 1) actual
              full join market_event_bettor_counts kept using (event_id)
             where coalesce(actual.n, 0) <> coalesce(kept.n, 0)) as count`,
  /** Settled sports bets without exactly one result (the seed settles each once), or results of bets not settled. */
  resultsOff: sql`
    select count(*) from sports_bets b full join (select bet_id, count(*) as n from bet_results where bet_kind = 'sports' group by 1) r on r.bet_id = b.id
     where (b.status <> 'PENDING') is distinct from (coalesce(r.n, 0) = 1)`,
  /** Kept user counts per parent (migration 013) that differ from the users. */
  userCountsOff: sql`
    select count(*) from (select parent_id, count(*) as n from users group by 1) actual full join user_counts kept using (parent_id)
     where coalesce(actual.n, 0) <> coalesce(kept.n, 0)`,
  /** The house's rollup against every result (0 or 1). */
  rollupOff: sql`
    select count(*) from (select 1) x
     where (select coalesce(sum(house_result), 0) from bet_results)
        <> (select coalesce(sum(direct + indirect), 0) from report_rollup where subject_kind = 'house')`,
} as const;

export type InvariantReport = Record<keyof typeof CHECKS, number>;

/** Every check's count of offending rows. */
export async function checkMoneyInvariants(db: Db): Promise<InvariantReport> {
  const report = {} as InvariantReport;
  for (const [name, query] of Object.entries(CHECKS) as [keyof typeof CHECKS, (typeof CHECKS)[keyof typeof CHECKS]][]) {
    const { rows } = await sql<{ count: bigint }>`${query}`.execute(db);
    report[name] = Number(rows[0]!.count);
  }
  return report;
}
