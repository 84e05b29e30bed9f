import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import type { BetStatus, ChainLink } from "../../db/schema.js";
import type { GameFlag } from "../../../protocol/wire.js";
import type { Slice } from "../../validation/schemas.js";
import { inPage } from "../../db/paging.js";

/** The bettor's switches, flags and parent, read inside the placing transaction. */
export function findBettor(db: Db, userId: bigint) {
  return db
    .selectFrom("users")
    .select(["id", "parent_id", "bet_enabled", "login_enabled", "permissions"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

export type NewSportsBet = {
  user_id: bigint;
  sport: number;
  event_id: string;
  market_id: string;
  market: string;
  market_type: "odds" | "bookmaker" | "fancy";
  runner: string;
  is_back: boolean;
  price: string;
  odds: string;
  amount: bigint;
  exposure: bigint;
  request_id?: string | null;
  /** History written as it was (the demo seed): when placed, and how it settled. */
  created_at?: Date;
  status?: BetStatus;
  profit?: bigint;
  loss?: bigint;
  settled_at?: Date | null;
};

/** The bet a user placed under an idempotency key, with what it was placed on. */
export function findByRequest(db: Db, userId: bigint, requestId: string) {
  return db
    .selectFrom("sports_bets")
    .select(["id", "event_id", "market_id", "runner", "is_back", "price", "amount"])
    .where("user_id", "=", userId)
    .where("request_id", "=", requestId)
    .executeTakeFirst();
}

/** Inserts bets in one statement; answers their ids in the order given. */
export async function insertSportsBets(db: Db, bets: NewSportsBet[]): Promise<bigint[]> {
  if (bets.length === 0) return [];
  const rows = await db.insertInto("sports_bets").values(bets).returning("id").execute();
  return rows.map((row) => row.id);
}

const BET_COLUMNS = [
  "b.id",
  "b.user_id",
  "u.username",
  "u.parent_id",
  "b.sport",
  "b.event_id",
  "e.team_a",
  "e.team_b",
  "b.market_id",
  "b.market",
  "b.market_type",
  "b.runner",
  "b.is_back",
  "b.price",
  "b.odds",
  "b.amount",
  "b.exposure",
  "b.status",
  "b.profit",
  "b.loss",
  "b.created_at",
  "b.settled_at",
] as const;

function betsQuery(db: Db) {
  return db
    .selectFrom("sports_bets as b")
    .innerJoin("users as u", "u.id", "b.user_id")
    .leftJoin("sports_events as e", "e.event_id", "b.event_id")
    .select(BET_COLUMNS);
}

export type BetRow = Awaited<ReturnType<typeof findBet>> & {};

export function findBet(db: Db, id: bigint) {
  return betsQuery(db).where("b.id", "=", id).executeTakeFirst();
}

export function findBets(db: Db, ids: bigint[]) {
  return betsQuery(db).where("b.id", "in", ids).execute();
}

export type Settlement = { id: bigint; status: Exclude<BetStatus, "PENDING">; profit: bigint; loss: bigint; settledBy: bigint };

/**
 * Settles the bets still pending among `settlements` with their results, in one statement,
 * and returns those it settled: the exactly-once gate (`WHERE status = 'PENDING'`).
 */
export async function markSettled(db: Db, settlements: Settlement[]): Promise<{ id: bigint; settled_at: Date }[]> {
  if (settlements.length === 0) return [];
  const rows = settlements.map(
    (row) => sql`(${row.id}::bigint, ${row.status}::text, ${row.profit}::bigint, ${row.loss}::bigint, ${row.settledBy}::bigint)`,
  );
  const { rows: settled } = await sql<{ id: bigint; settled_at: Date }>`
    update sports_bets as b
       set status = v.status, profit = v.profit, loss = v.loss, settled_by = v.settled_by, settled_at = now()
      from (values ${sql.join(rows)}) as v (id, status, profit, loss, settled_by)
     where b.id = v.id and b.status = 'PENDING'
    returning b.id, b.settled_at`.execute(db);
  return settled;
}

/** A settled bet, locked until the transaction ends: what a resettlement reverses. */
export function lockSettled(db: Db, id: bigint) {
  return db
    .selectFrom("sports_bets")
    .select(["id", "user_id", "sport", "event_id", "market_type", "is_back", "price", "odds", "amount", "exposure", "status", "profit", "loss"])
    .where("id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

export async function setResult(db: Db, id: bigint, result: { status?: BetStatus; profit: bigint; loss: bigint; settledBy?: bigint }) {
  await db
    .updateTable("sports_bets")
    .set({
      profit: result.profit,
      loss: result.loss,
      ...(result.status ? { status: result.status, settled_at: new Date() } : {}),
      ...(result.settledBy ? { settled_by: result.settledBy } : {}),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * The partners above a user, nearest first, with each one's share of `game` now: the
 * chain a settlement records for the reports (SQL function partner_chain, migration 009).
 */
export async function partnerChain(db: Db, userId: bigint, game: GameFlag): Promise<ChainLink[]> {
  const { rows } = await sql<{ chain: ChainLink[] }>`select partner_chain(${userId}, ${game}) as chain`.execute(db);
  return rows[0]!.chain;
}

export type NewResult = { betKind: "sports" | "casino"; betId: bigint; game: GameFlag; userId: bigint; houseResult: bigint; chain?: ChainLink[] };

/**
 * Records bet results in one statement; a result without its chain takes the partner chain
 * as it is now. The reports' rollup follows in the same statement (migration 009's trigger).
 */
export async function insertResults(db: Db, results: NewResult[]): Promise<void> {
  if (results.length === 0) return;
  const rows = results.map(
    (row) =>
      sql`(${row.betKind}::text, ${row.betId}::bigint, ${row.game}::text, ${row.userId}::bigint, ${row.houseResult}::bigint, ${row.chain === undefined ? null : JSON.stringify(row.chain)}::jsonb)`,
  );
  await sql`
    insert into bet_results (bet_kind, bet_id, game, user_id, house_result, chain)
    select v.bet_kind, v.bet_id, v.game, v.user_id, v.house_result, coalesce(v.chain, partner_chain(v.user_id, v.game))
      from (values ${sql.join(rows)}) as v (bet_kind, bet_id, game, user_id, house_result, chain)`.execute(db);
}

/**
 * What a bet's result rows add up to now, per partner chain: what a resettlement negates. Summing
 * every row (not picking the latest one) undoes exactly what the reports hold for the bet,
 * whatever chain of settlements and resettlements, void ones included, came before.
 */
export async function standingResults(db: Db, betId: bigint) {
  const { rows } = await sql<{ game: GameFlag; user_id: bigint; chain: ChainLink[]; house_result: string }>`
    select game, user_id, chain, sum(house_result) as house_result
      from bet_results where bet_kind = 'sports' and bet_id = ${betId}
     group by game, user_id, chain
    having sum(house_result) <> 0`.execute(db);
  return rows.map((row) => ({ game: row.game, userId: BigInt(row.user_id), chain: row.chain, houseResult: BigInt(row.house_result) }));
}

export async function recordResettlement(
  db: Db,
  row: { betId: bigint; actorId: bigint; before: { status: BetStatus; profit: bigint; loss: bigint }; after: { status: BetStatus; profit: bigint; loss: bigint } },
): Promise<void> {
  await db
    .insertInto("bet_resettlements")
    .values({
      bet_id: row.betId,
      actor_id: row.actorId,
      before_status: row.before.status,
      after_status: row.after.status,
      before_profit: row.before.profit,
      before_loss: row.before.loss,
      after_profit: row.after.profit,
      after_loss: row.after.loss,
    })
    .execute();
}

export type PendingFilter = { eventId?: string; marketId?: string; userId?: bigint; sport?: number };

function pendingQuery(db: Db, filter: PendingFilter) {
  let query = db.selectFrom("sports_bets as b").where("b.status", "=", "PENDING");
  if (filter.eventId !== undefined) query = query.where("b.event_id", "=", filter.eventId);
  if (filter.marketId !== undefined) query = query.where("b.market_id", "=", filter.marketId);
  if (filter.userId !== undefined) query = query.where("b.user_id", "=", filter.userId);
  if (filter.sport !== undefined) query = query.where("b.sport", "=", filter.sport);
  return query;
}

/** Pending bets oldest first: the ids of one page, then their rows (the join runs on the page only). */
export async function listPending(db: Db, filter: PendingFilter, slice: Slice) {
  const ids = await pendingQuery(db, filter).select("b.id").$call(inPage(["b.created_at", "b.id"], true, slice)).execute();
  if (ids.length === 0) return [];
  return betsQuery(db)
    .where(
      "b.id",
      "in",
      ids.map((row) => row.id),
    )
    .orderBy("b.created_at")
    .orderBy("b.id")
    .execute();
}

/** A kept count (sports_pending_counts): how many bets are pending, their stake and exposure (minor units). */
export type PendingSums = { n: bigint; stake: bigint; exposure: bigint };

/** The counter keys a pending bet counts under: all, its event, market, user and sport. */
const pendingKeys = (bet: { event_id: string; market_id: string | null; user_id: bigint; sport: number }) => [
  "all",
  `event:${bet.event_id}`,
  ...(bet.market_id === null ? [] : [`market:${bet.market_id}`]),
  `user:${bet.user_id}`,
  `sport:${bet.sport}`,
];

/** Each counter's share of a set of bets: the deltas their placing adds or their settling takes off. */
export function tallyPending(
  bets: readonly { event_id: string; market_id: string | null; user_id: bigint; sport: number; amount: bigint; exposure: bigint }[],
): Map<string, PendingSums> {
  const sums = new Map<string, PendingSums>();
  for (const bet of bets) {
    for (const key of pendingKeys(bet)) {
      const held = sums.get(key) ?? { n: 0n, stake: 0n, exposure: 0n };
      sums.set(key, { n: held.n + 1n, stake: held.stake + bet.amount, exposure: held.exposure + bet.exposure });
    }
  }
  return sums;
}

/**
 * The kept counts' rows are the first shared rows a placement and a settlement write, and every
 * one of them writes `all`: both take them in key order, so `all` (first in that order) makes
 * them wait for each other there, before any row either could hold that the other wants (the
 * positions, the book's totals and bettors, the accounts). Out of order, a placement and a
 * settlement on PostgreSQL deadlocked on two counts (tests/integration/market.test.ts).
 */
const inKeyOrder = (deltas: Map<string, PendingSums>) => [...deltas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Adds new pending bets to their keys' counts, in the caller's transaction, in key order (inKeyOrder). */
export async function countPendingAdded(db: Db, deltas: Map<string, PendingSums>): Promise<void> {
  if (deltas.size === 0) return;
  await db
    .insertInto("sports_pending_counts")
    .values(inKeyOrder(deltas).map(([key, { n, stake, exposure }]) => ({ key, n, stake, exposure })))
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        n: sql`sports_pending_counts.n + excluded.n`,
        stake: sql`sports_pending_counts.stake + excluded.stake`,
        exposure: sql`sports_pending_counts.exposure + excluded.exposure`,
      }),
    )
    .execute();
}

/**
 * Held by each settlement transaction until it ends: one instance's group commit writes one batch
 * at a time, and this keeps it so across instances sharing PostgreSQL, whose batches would
 * otherwise lock the same counts, positions and accounts in different orders and deadlock.
 */
export async function lockSettlements(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('betdesk.settle'))`.execute(db);
}

/**
 * Takes settled bets off their keys' counts, locked first in key order (inKeyOrder): an update
 * joined to its values locks in whatever order its plan reads. An update, not an upsert:
 * PostgreSQL checks n >= 0 on the row an upsert proposes.
 */
export async function countPendingSettled(db: Db, deltas: Map<string, PendingSums>): Promise<void> {
  if (deltas.size === 0) return;
  const ordered = inKeyOrder(deltas);
  await db.selectFrom("sports_pending_counts").select("key").where("key", "in", ordered.map(([key]) => key)).orderBy("key").forUpdate().execute();
  const rows = ordered.map(([key, { n, stake, exposure }]) => sql`(${key}::text, ${n}::bigint, ${stake}::bigint, ${exposure}::bigint)`);
  await sql`
    update sports_pending_counts as c set n = c.n - v.n, stake = c.stake - v.stake, exposure = c.exposure - v.exposure
      from (values ${sql.join(rows)}) as v (key, n, stake, exposure)
     where c.key = v.key`.execute(db);
}

/** The counter of a query with at most one filter; a narrower query counts its (few) rows. */
function counterKey(filter: PendingFilter): string | undefined {
  const given = [
    filter.eventId === undefined ? undefined : `event:${filter.eventId}`,
    filter.marketId === undefined ? undefined : `market:${filter.marketId}`,
    filter.userId === undefined ? undefined : `user:${filter.userId}`,
    filter.sport === undefined ? undefined : `sport:${filter.sport}`,
  ].filter((key) => key !== undefined);
  return given.length === 0 ? "all" : given.length === 1 ? given[0] : undefined;
}

/**
 * The filter without the fields another implies, so that a kept count answers it: a bet is placed
 * on a market of its event, with its event's sport (bets/service.ts, the seed), so a market and
 * its event, or an event and its sport, count as the market or the event alone, and as nothing
 * when they disagree (null). An event or market the platform does not list keeps the filter whole.
 */
async function narrowed(db: Db, filter: PendingFilter): Promise<PendingFilter | null> {
  const { marketId, eventId, sport } = filter;
  if (counterKey(filter) !== undefined || filter.userId !== undefined || (marketId === undefined && eventId === undefined)) return filter;
  const known =
    marketId !== undefined
      ? await db
          .selectFrom("sports_markets as m")
          .innerJoin("sports_events as e", "e.event_id", "m.event_id")
          .select(["m.event_id", "e.sport"])
          .where("m.market_id", "=", marketId)
          .executeTakeFirst()
      : await db.selectFrom("sports_events").select(["event_id", "sport"]).where("event_id", "=", eventId!).executeTakeFirst();
  if (!known) return filter;
  if ((eventId !== undefined && eventId !== known.event_id) || (sport !== undefined && sport !== known.sport)) return null;
  return marketId !== undefined ? { marketId } : { eventId };
}

const NO_SUMS: PendingSums = { n: 0n, stake: 0n, exposure: 0n };

export async function countPending(db: Db, given: PendingFilter): Promise<number> {
  const filter = await narrowed(db, given);
  if (filter === null) return 0;
  const key = counterKey(filter);
  if (key !== undefined) {
    const row = await db.selectFrom("sports_pending_counts").select("n").where("key", "=", key).executeTakeFirst();
    return Number(row?.n ?? 0n);
  }
  const row = await pendingQuery(db, filter).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A market's pending bets: its event's and its own id and name, with their sums. */
export type MarketSums = PendingSums & { event_id: string; team_a: string | null; team_b: string | null; market_id: string | null; market: string };

/**
 * The pending totals of a filter, in all and per market (largest exposure first). Read from the
 * kept counts when the filter has no user and at most one other field (the market rows of the
 * events, market or sport asked, once narrowed); a user's bets, or two filters no kept count answers, are summed from their
 * (few) rows through the filters' indexes.
 */
export async function pendingTotals(db: Db, given: PendingFilter): Promise<{ all: PendingSums; markets: MarketSums[] }> {
  const filter = await narrowed(db, given);
  if (filter === null) return { all: NO_SUMS, markets: [] };
  const key = counterKey(filter);
  if (key === undefined || filter.userId !== undefined) {
    const markets = await pendingQuery(db, filter)
      .leftJoin("sports_events as e", "e.event_id", "b.event_id")
      .select((eb) => [
        "b.event_id",
        "e.team_a",
        "e.team_b",
        "b.market_id",
        eb.fn.max("b.market").as("market"),
        eb.fn.countAll<string>().as("n"),
        eb.fn.sum<string>("b.amount").as("stake"),
        eb.fn.sum<string>("b.exposure").as("exposure"),
      ])
      .groupBy(["b.event_id", "e.team_a", "e.team_b", "b.market_id"])
      .execute();
    return totalsOf(markets.map((row) => ({ ...row, n: BigInt(row.n), stake: BigInt(row.stake), exposure: BigInt(row.exposure) })));
  }
  const [all, markets] = await Promise.all([
    db.selectFrom("sports_pending_counts").select(["n", "stake", "exposure"]).where("key", "=", key).executeTakeFirst(),
    db
      .selectFrom("sports_markets as m")
      .innerJoin("sports_events as e", "e.event_id", "m.event_id")
      .innerJoin("sports_pending_counts as c", (join) => join.on("c.key", "=", sql<string>`'market:' || m.market_id`))
      .select(["m.event_id", "e.team_a", "e.team_b", "m.market_id", "m.name as market", "c.n", "c.stake", "c.exposure"])
      .where("c.n", ">", 0n)
      .$if(filter.eventId !== undefined, (query) => query.where("m.event_id", "=", filter.eventId!))
      .$if(filter.marketId !== undefined, (query) => query.where("m.market_id", "=", filter.marketId!))
      .$if(filter.sport !== undefined, (query) => query.where("e.sport", "=", filter.sport!))
      .execute(),
  ]);
  return { all: all ?? NO_SUMS, markets: markets.sort(byExposure) };
}

const byExposure = (a: MarketSums, b: MarketSums) => (a.exposure === b.exposure ? 0 : a.exposure > b.exposure ? -1 : 1);

function totalsOf(markets: MarketSums[]) {
  const all = { n: 0n, stake: 0n, exposure: 0n };
  for (const market of markets) {
    all.n += market.n;
    all.stake += market.stake;
    all.exposure += market.exposure;
  }
  return { all, markets: markets.sort(byExposure) };
}

/** The user's open exposure: the sum over its pending bets. */
export async function openExposure(db: Db, userId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom("sports_bets")
    .select(sql<string>`coalesce(sum(exposure), 0)`.as("total"))
    .where("user_id", "=", userId)
    .where("status", "=", "PENDING")
    .executeTakeFirstOrThrow();
  return BigInt(row.total);
}

export type HistoryRange = { userId: bigint; from: Date; to: Date };

/** The bets of `range` in the table aliased `table` (`b` for sports bets). */
const placedIn = (table: string, range: HistoryRange) =>
  sql<boolean>`${sql.ref(`${table}.user_id`)} = ${range.userId} and ${sql.ref(`${table}.created_at`)} >= ${range.from} and ${sql.ref(`${table}.created_at`)} < ${range.to}`;

export function listUserSportsBets(db: Db, range: HistoryRange, slice: Slice) {
  return betsQuery(db).where(placedIn("b", range)).$call(inPage(["b.created_at", "b.id"], false, slice)).execute();
}

export async function countUserBets(db: Db, table: "sports_bets" | "casino_bets", range: HistoryRange, kind?: 1 | 2): Promise<number> {
  let query = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<bigint>().as("n"))
    .where(placedIn(table, range));
  if (kind !== undefined) query = query.where(sql.ref("kind"), "=", kind);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listUserCasinoBets(db: Db, kind: 1 | 2, range: HistoryRange, slice: Slice) {
  return db
    .selectFrom("casino_bets")
    .selectAll()
    .where(placedIn("casino_bets", range))
    .where("kind", "=", kind)
    .$call(inPage(["created_at", "id"], false, slice))
    .execute();
}

export type CasinoRow = Awaited<ReturnType<typeof listUserCasinoBets>>[number];

export async function insertCasinoBet(
  db: Db,
  bet: { kind: 1 | 2; user_id: bigint; provider_code: string | null; game_code: string; runner_name: string | null; round_id: string; amount: bigint; status: "SUCCESS" | "FAIL"; profit: bigint; loss: bigint; seed_id: bigint },
) {
  return db.insertInto("casino_bets").values(bet).returningAll().executeTakeFirstOrThrow();
}

/** The user's net result over its settled bets (winnings − losses), sports and casino. */
export async function netResult(db: Db, userId: bigint): Promise<bigint> {
  const row = await sql<{ total: string }>`
    select coalesce((select sum(profit - loss) from sports_bets where user_id = ${userId} and status <> 'PENDING'), 0)
         + coalesce((select sum(profit - loss) from casino_bets where user_id = ${userId}), 0) as total`.execute(db);
  return BigInt(row.rows[0]?.total ?? "0");
}

/** The user's parent (the anchor of scope checks) and balance. */
export function findUserAnchor(db: Db, userId: bigint) {
  return db.selectFrom("users").select(["id", "parent_id", "balance"]).where("id", "=", userId).executeTakeFirst();
}

/**
 * Live sessions that watch the book, each marked whether it belongs to the house desk (the super
 * admin, staff holding `bets`) or to a partner (who sees its subtree's book).
 */
export async function bookWatchingSessions(db: Db): Promise<{ id: bigint; houseDesk: boolean }[]> {
  const rows = await sql<{ id: bigint; house_desk: boolean }>`
    select s.id, a.role <> 3 as house_desk from admin_sessions s join admins a on a.id = s.admin_id
     where s.revoked_at is null and s.expires_at > now()
       and (a.role in (1, 3) or (a.role = 2 and coalesce((a.permissions ->> 'bets')::boolean, false)))`.execute(db);
  return rows.rows.map((row) => ({ id: BigInt(row.id), houseDesk: row.house_desk }));
}
