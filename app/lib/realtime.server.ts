/**
 * The realtime relay (docs/protocol.md "Realtime"): each signed-in browser connects to the console's own
 * socket.io; the console opens one upstream connection with that operator's token, so the
 * platform's own permission filtering applies, and relays `new-deposit` / `new-withdraw`. The
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
import { readSession } from "./session.server";
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

export function attachRealtimeRelay(server: HttpServer, store?: ConsoleStore): Server {
  const io = new Server(server, {
    path: REALTIME_PATH,
    serveClient: false,
    allowRequest: (request, callback) => callback(null, isSameOrigin(request, env.TRUST_PROXY)),
  });
  io.use(async (socket, next) => {
    const cookie = socket.handshake.headers.cookie ?? "";
    const session = await readSession(new Request("http://console.local/", { headers: { Cookie: cookie } }));
    if (!session) return next(new Error("Not signed in"));
    socket.data.token = session.token;
    next();
  });
  io.on("connection", (socket) => {
    const upstream = connectUpstream(env.SOCKET_URL, { auth: { token: socket.data.token }, transports: ["websocket"] });
    upstream.on("connect", () => socket.emit(UPSTREAM_STATE_EVENT, "live"));
    upstream.on("disconnect", () => socket.emit(UPSTREAM_STATE_EVENT, "offline"));
    upstream.on("connect_error", () => socket.emit(UPSTREAM_STATE_EVENT, "offline"));
    for (const event of Object.values(REALTIME_EVENTS)) upstream.on(event, (payload: unknown) => socket.emit(event, payload));
    socket.on("disconnect", () => upstream.close());
  });
  if (store) pushApprovals(io, server, store);
  return io;
}
