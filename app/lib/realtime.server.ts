/**
 * The realtime relay (docs/protocol.md "Realtime"): each signed-in browser connects to the console's own
 * socket.io; the console opens one upstream connection with that operator's token, so the
 * platform's own permission filtering applies, and relays `new-deposit` / `new-withdraw`. The
 * token never leaves the server.
 */
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { io as connectUpstream } from "socket.io-client";
import { REALTIME_EVENTS } from "../../protocol/wire";
import { env } from "./env.server";
import { REALTIME_PATH, UPSTREAM_STATE_EVENT } from "./realtime";
import { isSameOrigin } from "./same-origin.server";
import { readSession } from "./session.server";

export function attachRealtimeRelay(server: HttpServer): Server {
  const io = new Server(server, {
    path: REALTIME_PATH,
    serveClient: false,
    allowRequest: (request, callback) => callback(null, isSameOrigin(request)),
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
  return io;
}
