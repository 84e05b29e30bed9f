/**
 * The market book's positions (migration 007): written in the transactions that place and
 * settle bets, read by the desk's market analysis. Each read sums positions, a few rows per
 * runner and user, never the bets themselves.
 */
import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import { inSubtree } from "../accounts/repository.js";
import { RUNNER_QUOTE_COLUMNS } from "./repository.js";

export type PositionKey = { event_id: string; market_id: string; runner: string; line: string; user_id: bigint };
export type PositionChange = { ifWon: bigint; ifLost: bigint; stake: bigint };

type PositionDelta = PositionKey & PositionChange & { bets: bigint };

/** A map's values in the order of its keys: writers that take rows in one order cannot deadlock on them. */
const inKeyOrder = <V>(map: ReadonlyMap<string, V>): V[] => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
type TotalDelta = Omit<PositionDelta, "user_id">;

/** The positions' changes summed per market, runner and line (the kept totals' rows), in key order so writers lock alike. */
function totalsOf(positions: ReadonlyArray<PositionDelta>): TotalDelta[] {
  const totals = new Map<string, TotalDelta>();
  for (const { user_id: _user, ...position } of positions) {
    const key = JSON.stringify([position.market_id, position.runner, position.line]);
    const held = totals.get(key);
    totals.set(
      key,
      held
        ? { ...held, ifWon: held.ifWon + position.ifWon, ifLost: held.ifLost + position.ifLost, stake: held.stake + position.stake, bets: held.bets + position.bets }
        : position,
    );
  }
  return inKeyOrder(totals);
}

/**
 * Adds open bets to their positions and to the kept totals (migration 016), and a new position to
 * its (event, user) row and a user new to the event to its count (migration 017). Each key at
 * most once per call (the seed sums its bets first).
 */
export async function addPositions(db: Db, positions: ReadonlyArray<PositionDelta>): Promise<void> {
  if (positions.length === 0) return;
  await db
    .insertInto("market_book_totals")
    .values(totalsOf(positions).map(({ ifWon, ifLost, ...rest }) => ({ ...rest, if_won: ifWon, if_lost: ifLost })))
    .onConflict((oc) =>
      oc.columns(["market_id", "runner", "line"]).doUpdateSet({
        if_won: sql`market_book_totals.if_won + excluded.if_won`,
        if_lost: sql`market_book_totals.if_lost + excluded.if_lost`,
        stake: sql`market_book_totals.stake + excluded.stake`,
        bets: sql`market_book_totals.bets + excluded.bets`,
      }),
    )
    .execute();
  const written = await db
    .insertInto("market_positions")
    .values(positions.map(({ ifWon, ifLost, ...rest }) => ({ ...rest, if_won: ifWon, if_lost: ifLost })))
    .onConflict((oc) =>
      oc.columns(["market_id", "runner", "line", "user_id"]).doUpdateSet({
        if_won: sql`market_positions.if_won + excluded.if_won`,
        if_lost: sql`market_positions.if_lost + excluded.if_lost`,
        stake: sql`market_positions.stake + excluded.stake`,
        bets: sql`market_positions.bets + excluded.bets`,
      }),
    )
    // A new row (xmax 0) is a new position of its user on its event.
    .returning(["event_id", "user_id", sql<boolean>`xmax = 0`.as("inserted")])
    .execute();
  await addBettorPositions(db, written.filter((row) => row.inserted));
}

/** Counts of (event, user) pairs, in key order so that writers lock their rows alike. */
function perBettor(rows: ReadonlyArray<{ event_id: string; user_id: bigint | string }>): { eventId: string; userId: bigint; n: bigint }[] {
  const counted = new Map<string, { eventId: string; userId: bigint; n: bigint }>();
  for (const row of rows) {
    const key = `${row.event_id}\u0000${String(row.user_id).padStart(20, "0")}`;
    const held = counted.get(key);
    counted.set(key, held ? { ...held, n: held.n + 1n } : { eventId: row.event_id, userId: BigInt(row.user_id), n: 1n });
  }
  return inKeyOrder(counted);
}

/** Per event, how many users a change added (or took away): a few rows. */
function perEvent(eventIds: readonly string[]) {
  const counted = new Map<string, { event_id: string; n: bigint }>();
  for (const eventId of eventIds) counted.set(eventId, { event_id: eventId, n: (counted.get(eventId)?.n ?? 0n) + 1n });
  return inKeyOrder(counted);
}

/** New positions counted on their (event, user) rows (migration 017); a user new to an event counts on the event. */
async function addBettorPositions(db: Db, created: ReadonlyArray<{ event_id: string; user_id: bigint | string }>): Promise<void> {
  if (created.length === 0) return;
  const bettors = await db
    .insertInto("market_event_bettors")
    .values(perBettor(created).map(({ eventId, userId, n }) => ({ event_id: eventId, user_id: userId, positions: n })))
    .onConflict((oc) => oc.columns(["event_id", "user_id"]).doUpdateSet({ positions: sql`market_event_bettors.positions + excluded.positions` }))
    .returning(["event_id", sql<boolean>`xmax = 0`.as("inserted")])
    .execute();
  const arrived = perEvent(bettors.filter((row) => row.inserted).map((row) => row.event_id));
  if (arrived.length === 0) return;
  await db
    .insertInto("market_event_bettor_counts")
    .values(arrived)
    .onConflict((oc) => oc.column("event_id").doUpdateSet({ n: sql`market_event_bettor_counts.n + excluded.n` }))
    .execute();
}

/** Removed positions taken off their (event, user) rows; a user left with none leaves the event's count. */
async function removeBettorPositions(db: Db, removed: ReadonlyArray<{ event_id: string; user_id: bigint | string }>): Promise<void> {
  if (removed.length === 0) return;
  const pairs = perBettor(removed).map(({ eventId, userId, n }) => sql`(${eventId}::text, ${userId}::bigint, ${n}::bigint)`);
  const { rows } = await sql<{ event_id: string; user_id: string; positions: string }>`
    update market_event_bettors as b set positions = b.positions - v.n
      from (values ${sql.join(pairs)}) as v (event_id, user_id, n)
     where (b.event_id, b.user_id) = (v.event_id, v.user_id)
    returning b.event_id, b.user_id, b.positions`.execute(db);
  const left = rows.filter((row) => BigInt(row.positions) === 0n);
  if (left.length === 0) return;
  const gone = left.map((row) => sql`(${row.event_id}::text, ${row.user_id}::bigint)`);
  await sql`
    delete from market_event_bettors as b using (values ${sql.join(gone)}) as v (event_id, user_id)
     where (b.event_id, b.user_id) = (v.event_id, v.user_id) and b.positions = 0`.execute(db);
  const byEvent = perEvent(left.map((row) => row.event_id)).map(({ event_id, n }) => sql`(${event_id}::text, ${n}::bigint)`);
  await sql`
    update market_event_bettor_counts as c set n = c.n - v.n
      from (values ${sql.join(byEvent)}) as v (event_id, n) where c.event_id = v.event_id`.execute(db);
}

/**
 * Takes settled bets off their positions, in the settling transaction, in one statement: a
 * position losing all its bets goes, the others shrink. The kept totals shrink alike, a total
 * left at no bets goes; a position gone leaves its (event, user) row, a user with none left
 * leaves the event's count. Each key at most once per call.
 */
export async function removePositions(db: Db, positions: ReadonlyArray<PositionDelta>): Promise<void> {
  if (positions.length === 0) return;
  const totals = totalsOf(positions).map(
    (t) => sql`(${t.market_id}::text, ${t.runner}::text, ${t.line}::numeric, ${t.ifWon}::bigint, ${t.ifLost}::bigint, ${t.stake}::bigint, ${t.bets}::bigint)`,
  );
  const { rows: changed } = await sql<{ market_id: string; runner: string; line: string; bets: string }>`
    update market_book_totals as t
       set if_won = t.if_won - v.if_won, if_lost = t.if_lost - v.if_lost, stake = t.stake - v.stake, bets = t.bets - v.bets
      from (values ${sql.join(totals)}) as v (market_id, runner, line, if_won, if_lost, stake, bets)
     where (t.market_id, t.runner, t.line) = (v.market_id, v.runner, v.line)
    returning t.market_id, t.runner, t.line, t.bets`.execute(db);
  const emptied = changed.filter((total) => BigInt(total.bets) === 0n);
  // Only a settlement that took a runner's last open bet deletes its total (most batches none).
  if (emptied.length > 0) {
    const keys = emptied.map((t) => sql`(${t.market_id}::text, ${t.runner}::text, ${t.line}::numeric)`);
    await sql`
      delete from market_book_totals as t using (values ${sql.join(keys)}) as v (market_id, runner, line)
       where (t.market_id, t.runner, t.line) = (v.market_id, v.runner, v.line) and t.bets = 0`.execute(db);
  }
  const rows = positions.map(
    (p) =>
      sql`(${p.market_id}::text, ${p.runner}::text, ${p.line}::numeric, ${p.user_id}::bigint, ${p.ifWon}::bigint, ${p.ifLost}::bigint, ${p.stake}::bigint, ${p.bets}::bigint)`,
  );
  const { rows: gone } = await sql<{ event_id: string; user_id: string }>`
    with v (market_id, runner, line, user_id, if_won, if_lost, stake, bets) as (values ${sql.join(rows)}),
    gone as (
      delete from market_positions as p using v
       where (p.market_id, p.runner, p.line, p.user_id) = (v.market_id, v.runner, v.line, v.user_id) and p.bets = v.bets
      returning p.event_id, p.market_id, p.runner, p.line, p.user_id),
    shrunk as (
      update market_positions as p
         set if_won = p.if_won - v.if_won, if_lost = p.if_lost - v.if_lost, stake = p.stake - v.stake, bets = p.bets - v.bets
        from v
       where (p.market_id, p.runner, p.line, p.user_id) = (v.market_id, v.runner, v.line, v.user_id)
         and not exists (select 1 from gone as g where (g.market_id, g.runner, g.line, g.user_id) = (v.market_id, v.runner, v.line, v.user_id)))
    select event_id, user_id from gone`.execute(db);
  await removeBettorPositions(db, gone);
}

/** Whose positions a read counts: a partner's subtree (null: everyone's), optionally one user. */
export type BookScope = { within: bigint | null; client?: bigint };

function positionsOf(db: Db, eventIds: string[], scope: BookScope) {
  let query = db.selectFrom("market_positions as p").where("p.event_id", "in", eventIds);
  if (scope.client !== undefined) query = query.where("p.user_id", "=", scope.client);
  if (scope.within !== null) {
    query = query.innerJoin("users as u", "u.id", "p.user_id").where(inSubtree("u.parent_id", scope.within));
  }
  return query;
}

/**
 * The positions of events summed per market, runner and line over the scope's users: the house's
 * (everyone's) from the kept totals, a partner's or one user's from their positions.
 */
export async function sumPositions(db: Db, eventIds: string[], scope: BookScope) {
  if (eventIds.length === 0) return [];
  const rows = await (scope.within === null && scope.client === undefined
    ? db.selectFrom("market_book_totals").select(["event_id", "market_id", "runner", "line", "if_won", "if_lost", "stake"]).where("event_id", "in", eventIds)
    : positionsSummed(db, eventIds, scope)
  ).execute();
  return rows.map((row) => ({ ...row, if_won: BigInt(row.if_won), if_lost: BigInt(row.if_lost), stake: BigInt(row.stake) }));
}

function positionsSummed(db: Db, eventIds: string[], scope: BookScope) {
  return positionsOf(db, eventIds, scope)
    .select([
      "p.event_id",
      "p.market_id",
      "p.runner",
      "p.line",
      sql<string>`sum(p.if_won)`.as("if_won"),
      sql<string>`sum(p.if_lost)`.as("if_lost"),
      sql<string>`sum(p.stake)`.as("stake"),
    ])
    .groupBy(["p.event_id", "p.market_id", "p.runner", "p.line"]);
}

export type PositionSum = Awaited<ReturnType<typeof sumPositions>>[number];

/**
 * The users holding open bets on an event, within a partner's subtree, by username: all of them,
 * or the first `limit` and how many there are (a count of the event's positions, not a list).
 */
export async function usersWithPositions(db: Db, eventId: string, within: bigint | null, limit?: number) {
  const holders = positionsOf(db, [eventId], { within });
  // By the lower-cased username the users' index keeps, so the first few are read in order and the rest never.
  const list = db
    .selectFrom("users as bettor")
    .select(["bettor.id", "bettor.username"])
    .where("bettor.id", "in", holders.select("p.user_id"))
    .orderBy("bettor.username_key")
    .orderBy("bettor.id");
  if (limit === undefined) {
    const first = await list.execute();
    return { first, total: first.length };
  }
  // The house's count is kept (migration 017); a partner's subtree is counted from its positions.
  const count =
    within === null
      ? db.selectFrom("market_event_bettor_counts").select(sql<string>`n`.as("n")).where("event_id", "=", eventId).executeTakeFirst()
      : holders.select(sql<string>`count(distinct p.user_id)`.as("n")).executeTakeFirst();
  const [first, counted] = await Promise.all([list.limit(limit).execute(), count]);
  return { first, total: Number(counted?.n ?? 0) };
}

/** An event's odds, bookmaker and fancy markets with their runners, in feed order. */
export function marketsOf(db: Db, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("sports_markets as m")
    .innerJoin("sports_runners as r", "r.market_id", "m.market_id")
    .select([
      "m.event_id",
      "m.market_id",
      "m.type",
      "m.name as market_name",
      "m.heading",
      "m.status as market_status",
      ...RUNNER_QUOTE_COLUMNS,
    ])
    .where("m.event_id", "in", eventIds)
    .orderBy("m.market_id")
    .orderBy("r.position")
    .execute();
}

export type MarketRunnerRow = Awaited<ReturnType<typeof marketsOf>>[number];
