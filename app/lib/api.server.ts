/**
 * The console's client of the upstream APIs: one routing table, the bearer token, the envelope
 * both ways, a timeout, and no automatic retry (a retried POST could move money twice).
 * Every failure becomes an ApiError whose message is what the operator sees (docs/product.md §8).
 */
import { open, seal } from "../../protocol/envelope";
import { WIRE_MESSAGE, type WireResponse } from "../../protocol/wire";
import {
  API_ROUTES,
  parseRouting,
  resolveUrl,
  type AnswerOf,
  type ApiName,
  type CallName,
  type RequestOf,
} from "./api-routes.server";
import { env } from "./env.server";
import { keepAliveTransport, type Transport } from "./http-transport.server";
import { currentLog, requestContext, traceparentOf, traceReference } from "./observability/context.server";
import { metrics } from "./observability/metrics.server";
import { UNKNOWN_OUTCOME } from "../machines/bulk.machine";

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    message: string,
    /** The upstream HTTP status, or null when no answer came back. */
    readonly httpStatus: number | null,
  ) {
    super(message || WIRE_MESSAGE.fallback);
  }
  /**
   * No answer, a timeout, an upstream 5xx or a success that could not be read: the call may have
   * been carried out. Only a 4xx is a refusal, where nothing was done.
   */
  get outcomeUnknown(): boolean {
    return this.httpStatus === null || this.httpStatus < 400 || this.httpStatus >= 500;
  }
  /** docs/product.md §4/§8: this answer means the token no longer maps to an account. */
  get endsSession(): boolean {
    return this.message === WIRE_MESSAGE.adminNotFound;
  }
}

/** Who is calling: the session token, and the operator's address and browser for the audit trail. */
export type Caller = { token?: string; clientIp?: string; userAgent?: string };

export type ApiClientConfig = {
  bases: Record<ApiName, string>;
  secret: string;
  timeoutMs: number;
  routing: Partial<Record<CallName, ApiName>>;
  /** How calls reach the API (default: kept-alive node:http); tests pass a fake. */
  transport?: Transport;
  /** How files are downloaded (default: the global fetch, whose body streams on to the browser). */
  fetch?: typeof fetch;
};

export type ApiCall = <K extends CallName>(name: K, request: RequestOf<K>, caller: Caller) => Promise<AnswerOf<K>>;

/** The upstream request of a call: its URL, and headers and body with the bearer and the envelope. */
function buildRequest(config: ApiClientConfig, name: CallName, request: unknown, caller: Caller) {
  const route = API_ROUTES[name];
  const params = (request ?? {}) as Record<string, unknown>;
  const { url, consumed } = resolveUrl(config.bases, config.routing[name] ?? route.api, route.path, params);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (caller.token) headers.Authorization = `Bearer ${caller.token}`;
  if (caller.clientIp) headers["X-Forwarded-For"] = caller.clientIp;
  if (caller.userAgent) headers["User-Agent"] = caller.userAgent;
  // The request's trace, so the platform's log lines of this call are found by its id.
  const traceId = requestContext()?.traceId;
  if (traceId) headers.traceparent = traceparentOf(traceId);
  let body: string | undefined;
  if (route.method === "POST") {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify({ payload: seal(params, config.secret) });
  } else {
    for (const [key, value] of Object.entries(params)) {
      if (!consumed.has(key) && value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
  }
  return { url, init: { method: route.method, headers, body, signal: AbortSignal.timeout(config.timeoutMs) } };
}

/** A call's answer with what the audit trail keeps of the envelope: the HTTP status and the message. */
export type Answered<K extends CallName> = { data: AnswerOf<K>; httpStatus: number; message: string };

export type ApiExchange = <K extends CallName>(name: K, request: RequestOf<K>, caller: Caller) => Promise<Answered<K>>;

/**
 * Logs and measures each upstream call by its name and outcome (`ok`, `refused`: a 4xx, `unknown`:
 * no answer or a 5xx), never its body. A failure whose outcome is unknown names the request's
 * trace reference, which the operator's toast shows and both programs' logs carry.
 */
async function observed<K extends CallName>(name: K, call: () => Promise<Answered<K>>): Promise<Answered<K>> {
  const started = performance.now();
  const finish = (outcome: string, status: number | null) => {
    const durationMs = Math.round(performance.now() - started);
    metrics.upstreamDuration.observe({ call: name, outcome }, durationMs / 1000);
    currentLog()[outcome === "unknown" ? "warn" : "info"]({ call: name, outcome, status, durationMs }, "upstream call");
  };
  try {
    const answered = await call();
    finish("ok", answered.httpStatus);
    return answered;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    finish(error.outcomeUnknown ? "unknown" : "refused", error.httpStatus);
    const traceId = requestContext()?.traceId;
    if (!error.outcomeUnknown || !traceId) throw error;
    throw new ApiError(`${error.message} (ref ${traceReference(traceId)})`, error.httpStatus);
  }
}

export function createApiExchange(config: ApiClientConfig): ApiExchange {
  const transport = config.transport ?? keepAliveTransport;
  return (name, request, caller) => observed(name, () => exchange(name, request, caller));
  async function exchange<K extends CallName>(name: K, request: RequestOf<K>, caller: Caller): Promise<Answered<K>> {
    const { url, init } = buildRequest(config, name, request, caller);
    let response: Awaited<ReturnType<Transport>>;
    let wire: WireResponse;
    try {
      response = await transport(url, init);
      wire = (await response.json()) as WireResponse;
    } catch {
      // Network failure, timeout, or a body that is not JSON: docs/product.md §8 "Network or other exception".
      throw new ApiError(WIRE_MESSAGE.fallback, null);
    }
    if (wire?.status !== "SUCCESS") throw new ApiError(typeof wire?.msg === "string" ? wire.msg : "", response.status);
    try {
      const data = open(wire.data, config.secret) as AnswerOf<K>;
      return { data, httpStatus: response.status, message: typeof wire.msg === "string" ? wire.msg : "" };
    } catch {
      throw new ApiError(WIRE_MESSAGE.fallback, response.status);
    }
  }
}

export function createApiClient(config: ApiClientConfig): ApiCall {
  const exchange = createApiExchange(config);
  return async (name, request, caller) => (await exchange(name, request, caller)).data;
}

/**
 * A money call (a transfer, a request's decision). Without server idempotency (`requestId` is an
 * extension) a resend after a lost answer could move the money twice, so such a failure says
 * "Unknown: check before retrying", never a plain failure inviting a blind retry.
 */
export async function moneyCall<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.outcomeUnknown) throw new ApiError(`${UNKNOWN_OUTCOME} (${error.message})`, error.httpStatus);
    throw error;
  }
}

/**
 * A call that answers a file: the upstream response comes back as it is, to stream on. A failure
 * still answers the envelope, and becomes an ApiError like any other.
 */
export function createDownloader(config: ApiClientConfig) {
  const doFetch = config.fetch ?? fetch;
  return async <K extends CallName>(name: K, request: RequestOf<K>, caller: Caller): Promise<Response> => {
    const { url, init } = buildRequest(config, name, request, caller);
    const response = await doFetch(url, init).catch(() => null);
    if (!response) throw new ApiError(WIRE_MESSAGE.fallback, null);
    if (response.ok && !response.headers.get("Content-Type")?.includes("application/json")) return response;
    const wire = (await response.json().catch(() => null)) as WireResponse | null;
    throw new ApiError(typeof wire?.msg === "string" ? wire.msg : "", response.status);
  };
}

const upstream: ApiClientConfig = {
  bases: { admin: env.ADMIN_API_URL, sports: env.SPORTS_API_URL },
  secret: env.API_SECRET,
  timeoutMs: env.API_TIMEOUT_MS,
  routing: parseRouting(env.API_ROUTING),
};

export const exchangeApi: ApiExchange = createApiExchange(upstream);
export const callApi: ApiCall = async (name, request, caller) => (await exchangeApi(name, request, caller)).data;
export const downloadFromApi = createDownloader(upstream);
