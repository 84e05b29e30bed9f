/**
 * What the platform answers, read from protocol/calls.ts. `full` (the default) serves every call
 * the table holds; `spec` (`PLATFORM_PROFILE=spec`) behaves like an operator's API that has only
 * the spec's part, so the console is tested against one: extension calls answer the unknown
 * route's 404, query parameters and body fields the spec does not name are dropped before
 * validation (lists fall back to their own page size, `requestId` to no idempotency), answers
 * lose their extension fields and realtime sends only the spec's events.
 *
 * Either way every route under an API prefix must be a row of the table: a route the table
 * lacks stops the platform at boot, so the table cannot fall behind the routes.
 */
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { CALL_LIST, REALTIME_MARKS, type ApiName, type CallEntry, type Mark, type RealtimeEvent } from "../../protocol/calls.js";
import type { Env } from "../env.js";
import { notFound } from "../errors.js";
import { UNKNOWN_ROUTE } from "./error-handler.js";

export type ProfileName = Env["PLATFORM_PROFILE"];

export type Profile = {
  name: ProfileName;
  /** The answer of the request's call as this profile sends it. */
  answer(request: FastifyRequest, data: unknown): unknown;
  /** Whether this profile sends a realtime event. */
  emits(event: RealtimeEvent): boolean;
};

declare module "fastify" {
  interface FastifyInstance {
    profile: Profile;
  }
}

const served = (name: ProfileName, mark: Mark) => name === "full" || mark === "spec";

/** The platform URL of a call: its API's prefix and its path (`./x` is the admin API root's, docs/product.md §7.1). */
const urlOf = (prefixes: Record<ApiName, string>, call: CallEntry) =>
  call.path.startsWith("./") ? `${prefixes.admin.replace(/\/[^/]*$/, "")}${call.path.slice(1)}` : `${prefixes[call.api]}${call.path}`;

const omit = (value: unknown, fields: readonly string[]): unknown => {
  if (fields.length === 0 || typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([field]) => !fields.includes(field)));
};

export default fp<{ name: ProfileName; prefixes: Record<ApiName, string> }>(
  async function profile(app, { name, prefixes }) {
    const calls = new Map(CALL_LIST.map((call) => [`${call.method} ${urlOf(prefixes, call)}`, call]));
    // HEAD is GET without the body (Fastify adds it to every GET route).
    const callOf = (method: string, url: string | undefined) => calls.get(`${method === "HEAD" ? "GET" : method} ${url}`);
    const callOfRequest = (request: FastifyRequest) => callOf(request.routeOptions.method as string, request.routeOptions.url);

    app.addHook("onRoute", (route) => {
      if (!Object.values(prefixes).some((prefix) => route.url.startsWith(`${prefix}/`))) return;
      for (const method of [route.method].flat()) {
        if (!callOf(method, route.url)) throw new Error(`${method} ${route.url} is not a call of protocol/calls.ts`);
      }
    });

    app.decorate("profile", {
      name,
      answer: (request, data) => (name === "full" ? data : omit(data, callOfRequest(request)?.answerExtensions ?? [])),
      emits: (event) => served(name, REALTIME_MARKS[event]),
    } satisfies Profile);
    if (name === "full") return;

    // At the root, so before the scope's auth hook: an extension call answers as if it did not exist.
    app.addHook("onRequest", async (request) => {
      const call = callOfRequest(request);
      if (!call) return;
      if (!served(name, call.mark)) throw notFound(UNKNOWN_ROUTE);
      const query = request.query as Record<string, unknown>;
      request.query = Object.fromEntries(Object.entries(query).filter(([field]) => call.query[field] === "spec"));
    });
    // After the envelope's preValidation hook has opened the body (app.ts registers this plugin after it).
    app.addHook("preValidation", async (request) => {
      const call = callOfRequest(request);
      if (call) request.body = omit(request.body, call.bodyExtensions);
    });
  },
  { name: "profile", dependencies: ["envelope"] },
);
