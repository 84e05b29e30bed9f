/**
 * Every console request: one JSON log line (pino-http) with its trace id, route template, status,
 * duration and operator, and the same observation in the HTTP duration histogram. The request runs
 * in its context (context.server.ts), so its upstream calls carry and log its trace id.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { pinoHttp } from "pino-http";
import { newTraceId, rootLogger, runInRequestContext, type RequestContext } from "./context.server";
import { metrics } from "./metrics.server";
import { routeTemplates } from "./route-template.server";

type Observed = { route: string; context: RequestContext; started: bigint };
const OBSERVED = Symbol("observed");
const observedOf = (res: ServerResponse): Observed | undefined => (res as ServerResponse & { [OBSERVED]?: Observed })[OBSERVED];

function lineOf(req: IncomingMessage, res: ServerResponse, durationMs: number) {
  const observed = observedOf(res);
  return { method: req.method, route: observed?.route ?? "unmatched", status: res.statusCode, durationMs, operator: observed?.context.operator };
}

export function observeRequests(build: ServerBuild | (() => Promise<ServerBuild>)) {
  let templateOf: ((pathname: string) => string) | undefined;
  const templates = async () => (templateOf ??= routeTemplates((typeof build === "function" ? await build() : build).routes));
  // A build that does not load fails its request in Remix's handler, which says so; here it only has no template.
  const templatesOrNone = () => templates().catch(() => () => "unmatched");

  const logRequests = pinoHttp({
    logger: rootLogger(),
    genReqId: () => newTraceId(),
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: "traceId", responseTime: "durationMs" },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request failed",
    customSuccessObject: (req, res, logged: { durationMs: number }) => lineOf(req, res, logged.durationMs),
    customErrorObject: (req, res, error, logged: { durationMs: number }) => ({ ...lineOf(req, res, logged.durationMs), err: error }),
  });

  const enterContext = (req: Request, res: Response, next: NextFunction) => {
    void templatesOrNone().then((templateOf) => {
      const observed: Observed = { route: templateOf(req.path), context: { traceId: String(req.id), log: req.log }, started: process.hrtime.bigint() };
      (res as Response & { [OBSERVED]?: Observed })[OBSERVED] = observed;
      res.once("finish", () => {
        const seconds = Number(process.hrtime.bigint() - observed.started) / 1e9;
        metrics.httpDuration.observe({ route: observed.route, method: req.method, status: String(res.statusCode) }, seconds);
      });
      runInRequestContext(observed.context, next);
    });
  };

  return [logRequests, enterContext];
}
