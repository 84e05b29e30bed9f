/**
 * The console in-process, over HTTP: the same Express app server.ts starts (app/lib/express-app.server.ts),
 * hosting the Remix app as Vite builds it for the server, in front of a listening test platform.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { FastifyInstance } from "fastify";
import type { ServerBuild } from "@remix-run/node";
import { createServer, createServerModuleRunner, type ViteDevServer } from "vite";
import { consoleApp } from "../../../app/lib/express-app.server.js";
import { openConsoleStore } from "../../../app/lib/store/open.server.js";
import type { ConsoleStore } from "../../../app/lib/store/schema.js";
import type { LogTarget } from "../../../platform/plugins/logging.js";
import { testApp, TEST_SECRET } from "./platform.js";

export type TestConsole = {
  /** A request to the console, as a same-origin page of it would send it. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
  /** The console's own store (in memory): its audit trail. */
  store: ConsoleStore;
  /** Every request the platform answered, `METHOD /path`, in the order answered: what the console sent upstream. */
  upstream: string[];
  /** The platform behind it, listening. */
  platform: FastifyInstance;
};

/**
 * Two console instances on one store (what a balancer in front of two consoles sees), started
 * before the file's tests, handed to `take`, and closed after the tests. `second` goes to the
 * second instance alone.
 */
export function twoConsolesOn(
  openStore: () => Promise<ConsoleStore>,
  take: (started: { store: ConsoleStore; one: TestConsole; two: TestConsole }) => void,
  second: { trustedProxies?: string[] } = {},
): void {
  let started: { store: ConsoleStore; one: TestConsole; two: TestConsole } | undefined;
  beforeAll(async () => {
    const store = await openStore();
    // One after the other: each reads its platform's address from the environment as it starts.
    const one = await startConsole({}, undefined, { store });
    const two = await startConsole({}, undefined, { store, ...second });
    started = { store, one, two };
    take(started);
  }, 300_000); // two consoles, each with its own platform, start slowly on a busy machine
  afterAll(async () => {
    await started?.one.close();
    await started?.two.close();
  });
}

/**
 * One Vite server for every console this process starts: its transforms of the app are kept, and
 * each console runs them in a module runner of its own, so its modules (env.server.ts reading its
 * platform's address) are evaluated afresh. A Vite server per console transformed the whole app
 * again, 2–15 s each (docs/benchmarks.md, "The test suite"). No watcher: nothing changes under it.
 */
let vite: Promise<ViteDevServer> | undefined;
const sharedVite = () =>
  (vite ??= createServer({ server: { middlewareMode: true, hmr: false, ws: false, watch: null }, appType: "custom", logLevel: "error" }));

export async function startConsole(
  platformEnv: Parameters<typeof testApp>[0] = {},
  /** Hooks added to the platform before it listens: an operator's API that answers otherwise. */
  prepare: (platform: FastifyInstance) => void = () => {},
  /**
   * A store shared with another console (closed by its opener, not here), else one in memory of its
   * own; the console's TRUSTED_PROXIES; where the platform logs (silent unless given).
   */
  { store: shared, trustedProxies, platformLog }: { store?: ConsoleStore; trustedProxies?: string[]; platformLog?: LogTarget } = {},
): Promise<TestConsole> {
  const platform = await testApp(platformEnv, platformLog);
  prepare(platform);
  const upstream: string[] = [];
  platform.addHook("onResponse", async (request) => {
    upstream.push(`${request.method} ${request.url.split("?")[0]}`);
  });
  const api = await platform.listen({ port: 0, host: "127.0.0.1" });
  // The console reads its configuration once, when its module runner first loads app/lib/env.server.ts below.
  Object.assign(process.env, { ADMIN_API_URL: `${api}/api/admin`, SPORTS_API_URL: `${api}/api/sports`, API_SECRET: TEST_SECRET });
  const runner = createServerModuleRunner((await sharedVite()).environments.ssr, { hmr: false });
  const build = (await runner.import("virtual:remix/server-build")) as ServerBuild;
  const store = shared ?? (await openConsoleStore({ kind: "pglite", dataDir: null }));
  const server = consoleApp({ build, mode: "production", assets: [], store, trustedProxies }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    store,
    upstream,
    platform,
    fetch: (path, init = {}) =>
      fetch(`${origin}${path}`, { redirect: "manual", ...init, headers: { Origin: origin, ...Object.fromEntries(new Headers(init.headers)) } }),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await runner.close();
      await platform.close();
      if (!shared) await store.destroy();
    },
  };
}

/** Signs `account` in through the console's login form; its session cookie (`name=value`). */
export async function signInTo(app: TestConsole, account: { username: string; password: string }): Promise<string> {
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
  if (response.status !== 302) throw new Error(`sign-in as ${account.username} answered ${response.status}`);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}
