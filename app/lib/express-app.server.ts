/**
 * The console's Express app: security headers, the assets, the same-origin guard, Remix, and one
 * error handler. server.ts starts it; the console's HTTP tests start the same app in-process.
 */
import { STATUS_CODES } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { currentLog } from "./observability/context.server";
import { observeRequests } from "./observability/http.server";
import { isSameOrigin } from "./same-origin.server";
import { withRequestStore } from "./store/request-store.server";
import type { ConsoleStore } from "./store/schema";

export type ConsoleAppOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "development" | "production";
  /** What serves the browser's files: Vite's middleware in development, build/client otherwise. */
  assets: RequestHandler[];
  /** The console's own store, handed to every loader and action (ADR 0008). */
  store?: ConsoleStore;
  /** /health/live and /health/ready (observability/health.server.ts), answered before anything else. */
  health?: RequestHandler;
  /** TRUSTED_PROXIES: the only peers whose X-Forwarded-For names the browser (Express's `trust proxy`). */
  trustedProxies?: readonly string[];
};

/**
 * CSRF: the session cookie is SameSite=Lax, and on top of that every state-changing request must
 * come from this console's own pages.
 */
const sameOriginOnly = (trustedProxies: readonly string[]) => (req: Request, res: Response, next: NextFunction) => {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
  if (isSameOrigin(req, trustedProxies)) return next();
  res.status(403).json({ ok: false, message: "Cross-site request refused" });
};

/** The HTTP status an Express or middleware error carries (URIError from `/%`: 400), else 500. */
function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = status ?? statusCode;
  return typeof code === "number" && code >= 400 && code < 600 ? code : 500;
}

/**
 * Replaces Express's default handler, which prints the stack (server paths included) to the
 * client unless NODE_ENV is production. A client's mistake (a malformed URL such as `/%`) is its
 * 4xx with a short message; anything else is a 500 whose stack goes to the server's log only.
 */
// Express tells an error handler by its four parameters.
function answerError(error: unknown, _req: Request, res: Response, _next: NextFunction) {
  const status = statusOf(error);
  if (status >= 500) currentLog().error({ err: error }, "request failed");
  if (res.headersSent) return void res.destroy();
  const message = error instanceof URIError ? "Malformed URL" : status >= 500 ? "Something went wrong" : (STATUS_CODES[status] ?? "Bad request");
  res.status(status).type("text/plain").send(message);
}

export function consoleApp({ build, mode, assets, store, health, trustedProxies = [] }: ConsoleAppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Ahead of the log and the metrics: a balancer's checks every 2 s are neither.
  if (health) app.use(health);
  // None: req.ip (context.clientIp, the address the allowlist checks) is the socket's, whatever a
  // header says; else X-Forwarded-For is read back only through trusted peers (proxy-addr).
  if (trustedProxies.length > 0) app.set("trust proxy", [...trustedProxies]);
  app.use(compression());
  app.use((_req, res, next) => {
    res.set({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY" });
    next();
  });
  for (const serve of assets) app.use(serve);
  app.use(observeRequests(build));
  app.use(sameOriginOnly(trustedProxies));
  app.use((_req, res, next) => {
    // Signed-in pages must not come back from the browser's caches after logout.
    res.set("Cache-Control", "no-store");
    next();
  });
  // requireSession(request) finds the session records here (ADR 0010).
  if (store) app.use((_req, _res, next) => withRequestStore(store, next));
  app.all("*", createRequestHandler({ build, mode, getLoadContext: (req) => ({ clientIp: req.ip, store }) }));
  app.use(answerError);
  return app;
}
