/**
 * The console's HTTP server: Express hosting the Remix app. In `--dev` it runs Vite's middleware;
 * otherwise it serves the built app from build/.
 */
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { developmentSecrets, env } from "./app/lib/env.server";
import { attachRealtimeRelay } from "./app/lib/realtime.server";
import { isSameOrigin } from "./app/lib/same-origin.server";

const dev = process.argv.includes("--dev");

const vite = dev
  ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }))
  : undefined;

const build = vite
  ? () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : ((await import(new URL("./build/server/index.js", import.meta.url).href)) as ServerBuild);

/**
 * CSRF: the session cookie is SameSite=Lax, and on top of that every state-changing request must
 * come from this console's own pages.
 */
function sameOriginOnly(req: Request, res: Response, next: NextFunction) {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
  if (isSameOrigin(req)) return next();
  res.status(403).json({ ok: false, message: "Cross-site request refused" });
}

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use((_req, res, next) => {
  res.set({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY" });
  next();
});
if (vite) {
  app.use(vite.middlewares);
} else {
  // Vite fingerprints assets, so they can be cached for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}
app.use(sameOriginOnly);
app.use((_req, res, next) => {
  // Signed-in pages must not come back from the browser's caches after logout.
  res.set("Cache-Control", "no-store");
  next();
});
app.all(
  "*",
  createRequestHandler({
    build,
    mode: dev ? "development" : "production",
    getLoadContext: (req) => ({ clientIp: req.socket.remoteAddress }),
  }),
);

const server = app.listen(env.PORT, () => {
  for (const name of developmentSecrets()) {
    console.warn(`warning: ${name} has its development value; set it before exposing the console`);
  }
  console.log(`console listening on http://localhost:${env.PORT}`);
});
const realtime = attachRealtimeRelay(server);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void realtime.close();
    server.close();
    void vite?.close();
    process.exit(0);
  });
}
