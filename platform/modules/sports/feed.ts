/**
 * The sports feed seen from the platform: a provider (the simulator in sim/feed.ts, or a
 * real one) pushes events, markets and results into a FeedStore; bet placement and the
 * desk read the store. A real provider implements SportsFeed over its own push or poll.
 */
import type { SportCode } from "../../../protocol/wire.js";
import type { FeedStatus, MarketType } from "../../db/schema.js";

/** Prices in rupees with 2 decimals; in bookmaker markets sizes are null. */
export type Quote = { price: number; size: number | null };

export type FeedRunner = { name: string; status: FeedStatus; back: Quote | null; lay: Quote | null };

export type FeedMarket = {
  marketId: string;
  eventId: string;
  type: MarketType;
  name: string;
  /** Groups fancy lines; null for odds and bookmaker markets. */
  heading: string | null;
  status: FeedStatus;
  runners: FeedRunner[];
};

export type FeedEvent = {
  eventId: string;
  sport: SportCode;
  teamA: string;
  teamB: string;
  startTime: Date;
  inplay: boolean;
  status: FeedStatus;
  /** Lines of the scorecard page. */
  score: string[];
};

/** Where a provider writes. Every call replaces the stored state of what it names. */
export interface FeedStore {
  putEvent(event: FeedEvent): Promise<void>;
  putMarket(market: FeedMarket): Promise<void>;
  /** Closes a market with its result: the winning runner's name, or a fancy line's final run count. */
  closeMarket(marketId: string, result: string): Promise<void>;
}

export interface SportsFeed {
  start(): Promise<void>;
  stop(): Promise<void>;
}
