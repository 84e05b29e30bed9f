/**
 * The console's HTTP server: the Express app (app/lib/express-app.server.ts) hosting Remix and the
 * socket.io relay. In `--dev` it runs Vite's middleware; otherwise it serves the built app from build/.
 */
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { developmentSecrets, env } from "./app/lib/env.server";
import { consoleApp } from "./app/lib/express-app.server";
import { loadServiceConfig } from "./app/lib/observability/config.server";
import { rootLogger } from "./app/lib/observability/context.server";
import { createHealth, storeCheck, upstreamCheck } from "./app/lib/observability/health.server";
import { serveMetrics } from "./app/lib/observability/metrics-server.server";
import { countRealtimeClients } from "./app/lib/observability/metrics.server";
import { closeGracefully } from "./app/lib/observability/shutdown.server";
import { attachRealtimeRelay } from "./app/lib/realtime.server";
import { openConsoleStore, storeTargetOf } from "./app/lib/store/open.server";

const dev = process.argv.includes("--dev");
const service = loadServiceConfig();
const log = rootLogger();

const vite = dev
  ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }))
  : undefined;

const build = vite
  ? () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : ((await import(new URL("./build/server/index.js", import.meta.url).href)) as ServerBuild);

// Created and migrated on first start; without it the console does not start (ADR 0008).
const store = await openConsoleStore(storeTargetOf(env));

const health = createHealth([storeCheck(store), upstreamCheck(env.ADMIN_API_URL)]);

const app = consoleApp({
  store,
  health: health.router,
  trustedProxies: env.trustedProxies,
  build,
  mode: dev ? "development" : "production",
  assets: vite
    ? [vite.middlewares]
    : [
        // Vite fingerprints assets, so they can be cached for good: at /assets, where the pages ask for
        // them (mounted at the root, this one never matched, and they went out for an hour).
        express.Router().use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" })),
        express.static("build/client", { maxAge: "1h" }),
      ],
});

const server = app.listen(env.PORT, () => {
  for (const name of developmentSecrets()) {
    log.warn(`${name} has its development value; set it before exposing the console`);
  }
  // The banner is printed whatever LOG_LEVEL says (as the platform's is): scripts and tests wait for it.
  console.log(`console listening on http://localhost:${env.PORT}`);
});
const realtime = attachRealtimeRelay(server, store);
countRealtimeClients(realtime);
const metricsServer = service.METRICS_PORT
  ? serveMetrics(store, { port: service.METRICS_PORT, host: service.METRICS_HOST, token: service.METRICS_TOKEN })
  : undefined;

closeGracefully(
  server,
  {
    drain: health.drain,
    balancersTold: health.balancersTold,
    closeSockets: async () => {
      await realtime.close();
      await vite?.close();
      metricsServer?.close();
    },
    closeDatabases: () => store.destroy(),
  },
  { graceMs: service.SHUTDOWN_GRACE_MS, log },
);
