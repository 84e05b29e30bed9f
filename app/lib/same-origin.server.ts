/**
 * CSRF and cross-site WebSocket defence: a state-changing request (or a socket handshake) must
 * come from this console's own pages, i.e. its Origin (or failing that Referer) names this
 * console's scheme, host and port. The scheme is the connection's own (TLS or not), unless the
 * connection comes from one of TRUSTED_PROXIES: then a balancer ending TLS in front
 * (deploy/haproxy.cfg) tells it in X-Forwarded-Proto. No other proxy header is trusted here.
 */
import { isAddressIn } from "./addresses";

export type OriginCheckedRequest = {
  headers: { origin?: string; referer?: string; host?: string; "x-forwarded-proto"?: string | string[] };
  socket: object;
};

function schemeOf({ headers, socket }: OriginCheckedRequest, trustedProxies: readonly string[]): "http:" | "https:" {
  if ("encrypted" in socket && socket.encrypted === true) return "https:";
  const forwarded = headers["x-forwarded-proto"];
  const from = "remoteAddress" in socket && typeof socket.remoteAddress === "string" ? socket.remoteAddress : "";
  if (typeof forwarded === "string" && isAddressIn(from, trustedProxies)) {
    return forwarded.split(",")[0]!.trim() === "https" ? "https:" : "http:";
  }
  return "http:";
}

/** `trustedProxies`: the console's TRUSTED_PROXIES. */
export function isSameOrigin(request: OriginCheckedRequest, trustedProxies: readonly string[] = []): boolean {
  const { headers } = request;
  const source = headers.origin ?? headers.referer;
  if (!source || !headers.host) return false;
  const scheme = schemeOf(request, trustedProxies);
  try {
    const url = new URL(source);
    return url.protocol === scheme && url.host === headers.host;
  } catch {
    return false;
  }
}
