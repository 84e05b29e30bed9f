/**
 * socket.io on the platform's own HTTP server (same port). A socket authenticates in the
 * handshake with an admin session token (`auth: { token }`); without a live one it is
 * refused and receives nothing. Each session's sockets share a room, and a new request is
 * emitted to the rooms of the live sessions allowed to see it, computed at emit time, so a
 * session that signs out or expires stops receiving without a reconnect. With
 * REDIS_URL the Redis adapter carries emits between platform instances. The profile
 * (plugins/profile.ts) decides which events exist: `spec` sends only new-deposit and new-withdraw.
 */
import { createAdapter } from "@socket.io/redis-adapter";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createClient } from "redis";
import { Server } from "socket.io";
import type { RealtimeEvent } from "../protocol/calls.js";
import { REALTIME_EVENTS, WIRE_MESSAGE, type BetSettledEvent, type RequestKind } from "../protocol/wire.js";
import { findLiveSession } from "./modules/auth/repository.js";
import { bookWatchingSessions } from "./modules/bets/repository.js";
import { watchingSessions } from "./modules/requests/repository.js";
import { REQUEST_FLAG, type Announce } from "./modules/requests/service.js";
import { hashToken } from "./security/token.js";

declare module "fastify" {
  interface FastifyInstance {
    realtime: {
      announce: Announce;
      book: BookEvents;
      /** Sockets connected to this instance (the metrics). */
      clientCount: () => number;
      /** Rejects when Redis, configured, does not answer (the readiness check); null without Redis. */
      pingRedis: (() => Promise<void>) | null;
    };
  }
}

/** The sports book's events: settlements to the house desk's sessions, market updates also to partners'. */
export type BookEvents = { betSettled(event: BetSettledEvent): void; marketUpdate(eventId: string): void };

/** How long one lookup of the sessions watching the book serves the book's events. */
const WATCHERS_TTL_MS = 1000;

/** At most one market-update a second per event: the first at once, later ones folded into one at the second's end. */
const MARKET_UPDATE_INTERVAL_MS = 1000;

const roomOf = (sessionId: bigint) => `session:${sessionId}`;
const EVENT: Record<RequestKind, RealtimeEvent> = { deposit: REALTIME_EVENTS.newDeposit, withdraw: REALTIME_EVENTS.newWithdraw };

async function redisAdapter(app: FastifyInstance, url: string, key: string) {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  // A lost connection reconnects on its own; say so instead of crashing on the event.
  for (const client of [pub, sub]) client.on("error", (error: Error) => app.log.warn(`redis: ${error.message}`));
  await Promise.all([pub.connect(), sub.connect()]);
  app.addHook("onClose", async () => {
    await Promise.all([pub.quit(), sub.quit()]);
  });
  return { adapter: createAdapter(pub, sub, { key }), ping: async () => void (await pub.ping()) };
}

export default fp<{ redisUrl?: string; redisPrefix: string }>(
  async function realtime(app, { redisUrl, redisPrefix }) {
    const io = new Server(app.server, { serveClient: false });
    const redis = redisUrl ? await redisAdapter(app, redisUrl, redisPrefix) : null;
    if (redis) io.adapter(redis.adapter);

    io.use((socket, next) => {
      const token: unknown = socket.handshake.auth?.token;
      const found = typeof token === "string" ? findLiveSession(app.db, hashToken(token)) : Promise.resolve(undefined);
      found.then(
        (session) => {
          if (!session) return next(new Error(WIRE_MESSAGE.adminNotFound));
          socket.data.sessionId = session.session.id;
          next();
        },
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    });
    // The book's watchers, as last looked up (see flushBook); a socket coming or going asks again.
    let watchers: { until: number; sessions: ReturnType<typeof bookWatchingSessions> } | null = null;
    io.on("connection", (socket) => {
      void socket.join(roomOf(socket.data.sessionId as bigint));
      watchers = null;
      socket.on("disconnect", () => (watchers = null));
    });

    // Events enter at announce and toBook; each asks the profile first, so one it does not send costs no session lookup.
    const announce: Announce = async (kind, userId, event) => {
      if (!app.profile.emits(EVENT[kind])) return;
      try {
        const sessions = await watchingSessions(app.db, userId, REQUEST_FLAG[kind]);
        if (sessions.length > 0) io.to(sessions.map(roomOf)).emit(EVENT[kind], event);
      } catch (error) {
        // The request is stored either way; the lists' 10-second refresh shows it.
        app.log.warn({ err: error }, "realtime announce failed");
      }
    };
    // Book events of one turn share one lookup of the watching sessions, and a lookup serves the
    // turns of the next WATCHERS_TTL_MS too: a market settled in batches would otherwise ask once a
    // bet, or once a batch, competing with the settlements for the database (on PGlite, one
    // connection). A session that ends, or loses the bets permission, with its socket still open
    // may so hear the book's events for that long more.
    type Audience = "houseDesk" | "bookWatchers";
    let outbox: [audience: Audience, event: RealtimeEvent, payload: unknown][] = [];
    const watchingNow = () => {
      if (!watchers || watchers.until <= Date.now()) {
        const lookup = { until: Date.now() + WATCHERS_TTL_MS, sessions: bookWatchingSessions(app.db) };
        // A failed lookup is not kept: the next turn asks again.
        lookup.sessions.catch(() => {
          if (watchers === lookup) watchers = null;
        });
        watchers = lookup;
      }
      return watchers.sessions;
    };
    const flushBook = async () => {
      const events = outbox;
      outbox = [];
      try {
        const sessions = await watchingNow();
        const rooms: Record<Audience, string[]> = {
          houseDesk: sessions.filter((session) => session.houseDesk).map((session) => roomOf(session.id)),
          bookWatchers: sessions.map((session) => roomOf(session.id)),
        };
        for (const [audience, event, payload] of events) if (rooms[audience].length > 0) io.to(rooms[audience]).emit(event, payload);
      } catch (error) {
        // The bets are stored either way; the desk's poll shows them.
        app.log.warn({ err: error }, "realtime book event failed");
      }
    };
    const toBook = (audience: Audience, event: RealtimeEvent, payload: unknown) => {
      // Nobody connected: skip the session lookup, which would compete with settlements for the
      // database. Known only alone: with the adapter, the desk's sockets may be on another instance.
      if (!app.profile.emits(event) || (!redisUrl && io.engine.clientsCount === 0)) return;
      if (outbox.length === 0) setImmediate(() => void flushBook());
      outbox.push([audience, event, payload]);
    };
    const lastMarketUpdate = new Map<string, number>();
    const trailing = new Map<string, NodeJS.Timeout>();
    const book: BookEvents = {
      // Bet ids are the house desk's; an event id tells a partner only to reload its own book.
      betSettled: (event) => toBook("houseDesk", REALTIME_EVENTS.betSettled, event),
      marketUpdate(eventId) {
        if (trailing.has(eventId)) return;
        const wait = (lastMarketUpdate.get(eventId) ?? 0) + MARKET_UPDATE_INTERVAL_MS - Date.now();
        const emit = () => {
          trailing.delete(eventId);
          lastMarketUpdate.set(eventId, Date.now());
          toBook("bookWatchers", REALTIME_EVENTS.marketUpdate, { eventId });
        };
        if (wait <= 0) emit();
        else trailing.set(eventId, setTimeout(emit, wait));
      },
    };
    app.decorate("realtime", { announce, book, clientCount: () => io.engine.clientsCount, pingRedis: redis?.ping ?? null });

    // Before Fastify closes the HTTP server: end the sockets, which would otherwise keep it open.
    app.addHook("preClose", async () => {
      for (const timer of trailing.values()) clearTimeout(timer);
      trailing.clear();
      io.local.disconnectSockets(true);
      io.engine.close();
    });
  },
  { name: "realtime", dependencies: ["profile"] },
);
