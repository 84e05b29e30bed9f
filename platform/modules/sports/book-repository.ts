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

/** Adds open bets to their positions; each key at most once per call (the seed sums its bets first). */
export async function addPositions(db: Db, positions: ReadonlyArray<PositionKey & PositionChange & { bets: bigint }>): Promise<void> {
  if (positions.length === 0) return;
  await db
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
    .execute();
}

/**
 * Takes settled bets off their positions, in the settling transaction, in one statement: a
 * position losing all its bets goes, the others shrink. Each key at most once per call.
 */
export async function removePositions(db: Db, positions: ReadonlyArray<PositionKey & PositionChange & { bets: bigint }>): Promise<void> {
  if (positions.length === 0) return;
  const rows = positions.map(
    (p) =>
      sql`(${p.market_id}::text, ${p.runner}::text, ${p.line}::numeric, ${p.user_id}::bigint, ${p.ifWon}::bigint, ${p.ifLost}::bigint, ${p.stake}::bigint, ${p.bets}::bigint)`,
  );
  await sql`
    with v (market_id, runner, line, user_id, if_won, if_lost, stake, bets) as (values ${sql.join(rows)}),
    gone as (
      delete from market_positions as p using v
       where (p.market_id, p.runner, p.line, p.user_id) = (v.market_id, v.runner, v.line, v.user_id) and p.bets = v.bets
      returning p.market_id, p.runner, p.line, p.user_id)
    update market_positions as p
       set if_won = p.if_won - v.if_won, if_lost = p.if_lost - v.if_lost, stake = p.stake - v.stake, bets = p.bets - v.bets
      from v
     where (p.market_id, p.runner, p.line, p.user_id) = (v.market_id, v.runner, v.line, v.user_id)
       and not exists (select 1 from gone as g where (g.market_id, g.runner, g.line, g.user_id) = (v.market_id, v.runner, v.line, v.user_id))`.execute(db);
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

/** The positions of events summed per market, runner and line over the scope's users. */
export async function sumPositions(db: Db, eventIds: string[], scope: BookScope) {
  if (eventIds.length === 0) return [];
  const rows = await positionsOf(db, eventIds, scope)
    .select([
      "p.event_id",
      "p.market_id",
      "p.runner",
      "p.line",
      sql<string>`sum(p.if_won)`.as("if_won"),
      sql<string>`sum(p.if_lost)`.as("if_lost"),
      sql<string>`sum(p.stake)`.as("stake"),
    ])
    .groupBy(["p.event_id", "p.market_id", "p.runner", "p.line"])
    .execute();
  return rows.map((row) => ({ ...row, if_won: BigInt(row.if_won), if_lost: BigInt(row.if_lost), stake: BigInt(row.stake) }));
}

export type PositionSum = Awaited<ReturnType<typeof sumPositions>>[number];

/** The users holding open bets on an event, within a partner's subtree. */
export function usersWithPositions(db: Db, eventId: string, within: bigint | null) {
  return db
    .selectFrom("users as bettor")
    .select(["bettor.id", "bettor.username"])
    .where("bettor.id", "in", positionsOf(db, [eventId], { within }).select("p.user_id"))
    .orderBy("bettor.username")
    .execute();
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
