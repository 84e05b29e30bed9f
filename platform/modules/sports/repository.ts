/** The feed store over the database, and the reads placement, the desk and the scorecard make. */
import { sql } from "kysely";
import type { Db } from "../../db/index.js";
import { inPage } from "../../db/paging.js";
import type { Slice } from "../../validation/schemas.js";
import type { FeedEvent, FeedMarket, FeedStore, Quote } from "./feed.js";

const price = (quote: Quote | null) => (quote ? quote.price.toFixed(2) : null);
const size = (quote: Quote | null) => (quote?.size == null ? null : quote.size.toFixed(2));

export function createFeedStore(db: Db): FeedStore {
  return {
    async putEvent(event: FeedEvent) {
      const values = {
        sport: event.sport,
        team_a: event.teamA,
        team_b: event.teamB,
        start_time: event.startTime,
        inplay: event.inplay,
        status: event.status,
        score: JSON.stringify(event.score),
        updated_at: new Date(),
      };
      await db
        .insertInto("sports_events")
        .values({ event_id: event.eventId, ...values })
        .onConflict((oc) => oc.column("event_id").doUpdateSet(values))
        .execute();
    },

    async putMarket(market: FeedMarket) {
      // A market and its runners change together; the seed calls this inside its own transaction.
      const write = async (trx: Db) => {
        const values = { event_id: market.eventId, type: market.type, name: market.name, heading: market.heading, status: market.status, updated_at: new Date() };
        await trx
          .insertInto("sports_markets")
          .values({ market_id: market.marketId, ...values })
          .onConflict((oc) => oc.column("market_id").doUpdateSet(values))
          .execute();
        for (const [position, runner] of market.runners.entries()) {
          const prices = {
            position,
            status: runner.status,
            back_price: price(runner.back),
            back_size: size(runner.back),
            lay_price: price(runner.lay),
            lay_size: size(runner.lay),
          };
          await trx
            .insertInto("sports_runners")
            .values({ market_id: market.marketId, name: runner.name, ...prices })
            .onConflict((oc) => oc.columns(["market_id", "name"]).doUpdateSet(prices))
            .execute();
        }
      };
      await (db.isTransaction ? write(db) : db.transaction().execute(write));
    },

    async closeMarket(marketId: string, result: string) {
      const now = new Date();
      await db.updateTable("sports_markets").set({ status: "CLOSED", result, updated_at: now, closed_at: now }).where("market_id", "=", marketId).execute();
    },
  };
}

/** A runner's status and prices, read with its market (`r`). */
export const RUNNER_QUOTE_COLUMNS = ["r.name as runner", "r.status as runner_status", "r.back_price", "r.back_size", "r.lay_price", "r.lay_size"] as const;

/** A runner with its market and event: what placement checks a bet against. */
export function findOffer(db: Db, marketId: string, runner: string) {
  return db
    .selectFrom("sports_runners as r")
    .innerJoin("sports_markets as m", "m.market_id", "r.market_id")
    .innerJoin("sports_events as e", "e.event_id", "m.event_id")
    .select([
      "m.market_id",
      "m.event_id",
      "m.type",
      "m.name as market_name",
      "m.status as market_status",
      "e.sport",
      "e.team_a",
      "e.team_b",
      "e.status as event_status",
      ...RUNNER_QUOTE_COLUMNS,
    ])
    .where("r.market_id", "=", marketId)
    .where("r.name", "=", runner)
    .executeTakeFirst();
}

export type Offer = NonNullable<Awaited<ReturnType<typeof findOffer>>>;

/** Events of a sport, in play first, then by start time. */
export function listEvents(db: Db, sport: number) {
  return db
    .selectFrom("sports_events")
    .select(["event_id", "sport", "team_a", "team_b", "inplay", "start_time"])
    .where("sport", "=", sport)
    .where("status", "<>", "CLOSED")
    .orderBy("inplay", "desc")
    .orderBy("start_time")
    .orderBy("event_id")
    .execute();
}

/** A random runner of an open market with a price on one side: what the activity simulator bets on. */
export async function randomOffer(db: Db) {
  const row = await db
    .selectFrom("sports_runners as r")
    .innerJoin("sports_markets as m", "m.market_id", "r.market_id")
    .innerJoin("sports_events as e", "e.event_id", "m.event_id")
    .select(["m.event_id", "m.market_id", "r.name", "r.back_price", "r.lay_price"])
    .where("m.status", "in", ["ACTIVE", "OPEN"])
    .where("e.status", "in", ["ACTIVE", "OPEN"])
    .where("r.status", "in", ["ACTIVE", "OPEN"])
    .orderBy(sql`random()`)
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const isBack = row.back_price !== null && (row.lay_price === null || Math.random() < 0.6);
  const price = isBack ? row.back_price : row.lay_price;
  return price === null ? undefined : { eventId: row.event_id, marketId: row.market_id, runner: row.name, isBack: isBack ? (1 as const) : (0 as const), price: Number(price) };
}

export function findEvent(db: Db, eventId: string) {
  return db.selectFrom("sports_events").selectAll().where("event_id", "=", eventId).executeTakeFirst();
}

/** Which closed markets: of one sport (code), closed at or after `since`. */
export type ClosedFilter = { sport?: number; since?: Date };

/** Markets the feed closed that still hold pending bets (the bets' `market_id`), narrowed by `filter`. */
function closedWithPending(db: Db, filter: ClosedFilter) {
  return db
    .selectFrom("sports_markets as m")
    .innerJoin("sports_events as e", "e.event_id", "m.event_id")
    .innerJoin("sports_bets as b", (join) => join.onRef("b.market_id", "=", "m.market_id").on("b.status", "=", "PENDING"))
    .where("m.closed_at", "is not", null)
    .$if(filter.sport !== undefined, (query) => query.where("e.sport", "=", filter.sport!))
    .$if(filter.since !== undefined, (query) => query.where("m.closed_at", ">=", filter.since!));
}

/** A page of them, oldest closing first, with their pending bets' count, stake and exposure (minor units). */
export function listClosedMarkets(db: Db, filter: ClosedFilter, slice: Slice) {
  return closedWithPending(db, filter)
    .select((eb) => [
      "m.market_id",
      "m.event_id",
      "m.type",
      "m.name",
      "m.result",
      "m.closed_at",
      "e.sport",
      "e.team_a",
      "e.team_b",
      eb.fn.countAll<string>().as("pending"),
      eb.fn.sum<string>("b.amount").as("stake"),
      eb.fn.sum<string>("b.exposure").as("exposure"),
    ])
    .groupBy(["m.market_id", "e.event_id"])
    .$call(inPage(["m.closed_at", "m.market_id"], true, slice))
    .execute();
}

export async function countClosedMarkets(db: Db, filter: ClosedFilter): Promise<number> {
  const row = await closedWithPending(db, filter)
    .select(sql<string>`count(distinct m.market_id)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
