/**
 * The realtime relay (docs/protocol.md "Realtime"): each signed-in browser connects to the console's own
 * socket.io; the console opens one upstream connection with that operator's token, so the
 * platform's own permission filtering applies, and relays its events (`bet-settled` coalesced). The
 * token never leaves the server. It also pushes the count of open four-eyes approvals whenever it
 * changes in the console's store.
 */
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { io as connectUpstream } from "socket.io-client";
import { REALTIME_EVENTS } from "../../protocol/wire";
import { env } from "./env.server";
import { APPROVALS_EVENT, REALTIME_PATH, UPSTREAM_STATE_EVENT } from "./realtime";
import { isSameOrigin } from "./same-origin.server";
import { readCookieSession } from "./session.server";
import { countPending } from "./store/four-eyes.server";
import type { ConsoleStore } from "./store/schema";

/**
 * How often the relay reads the count. Read from the store rather than told by the action, so an
 * approval made or decided on any console instance sharing it reaches this one's browsers too.
 */
const APPROVALS_POLL_MS = 2_000;

/** Emits the count of open approvals to every browser each time it changes; stops with the server. */
function pushApprovals(io: Server, server: HttpServer, store: ConsoleStore) {
  let last: number | null = null;
  const timer = setInterval(() => {
    countPending(store).then(
      (count) => {
        if (count !== last && last !== null) io.emit(APPROVALS_EVENT, count);
        last = count;
      },
      // A store that cannot answer now is asked again on the next tick.
      () => undefined,
    );
  }, APPROVALS_POLL_MS);
  timer.unref();
  server.on("close", () => clearInterval(timer));
}

/**
 * Events a browser only reloads on, whatever they carry: relayed at most once per COALESCE_MS, the
 * last one kept, so a settlement job of a thousand bets sends each browser a few, not a thousand.
 */
const COALESCED_EVENTS: ReadonlySet<string> = new Set([REALTIME_EVENTS.betSettled]);
export const COALESCE_MS = 250;

/** The first payload at once; then, at most once per `ms`, the latest one that came meanwhile. */
export function coalesce(emit: (payload: unknown) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let waiting: { payload: unknown } | null = null;
  const flush = () => {
    timer = null;
    if (!waiting) return;
    const { payload } = waiting;
    waiting = null;
    emit(payload);
    timer = setTimeout(flush, ms);
  };
  return {
    push(payload: unknown) {
      if (timer) waiting = { payload };
      else {
        emit(payload);
        timer = setTimeout(flush, ms);
      }
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  };
}

export function attachRealtimeRelay(server: HttpServer, store?: ConsoleStore): Server {
  const io = new Server(server, {
    path: REALTIME_PATH,
    serveClient: false,
    allowRequest: (request, callback) => callback(null, isSameOrigin(request, env.trustedProxies)),
  });
  io.use(async (socket, next) => {
    const cookie = socket.handshake.headers.cookie ?? "";
    const session = await readCookieSession(cookie, store);
    if (!session) return next(new Error("Not signed in"));
    socket.data.token = session.token;
    next();
  });
  io.on("connection", (socket) => {
    const upstream = connectUpstream(env.SOCKET_URL, { auth: { token: socket.data.token }, transports: ["websocket"] });
    upstream.on("connect", () => socket.emit(UPSTREAM_STATE_EVENT, "live"));
    upstream.on("disconnect", () => socket.emit(UPSTREAM_STATE_EVENT, "offline"));
    upstream.on("connect_error", () => socket.emit(UPSTREAM_STATE_EVENT, "offline"));
    const stops: Array<() => void> = [];
    for (const event of Object.values(REALTIME_EVENTS)) {
      const relay = (payload: unknown) => socket.emit(event, payload);
      if (!COALESCED_EVENTS.has(event)) upstream.on(event, relay);
      else {
        const coalesced = coalesce(relay, COALESCE_MS);
        upstream.on(event, coalesced.push);
        stops.push(coalesced.stop);
      }
    }
    socket.on("disconnect", () => {
      upstream.close();
      for (const stop of stops) stop();
    });
  });
  if (store) pushApprovals(io, server, store);
  return io;
}
