/**
 * CSRF and cross-site WebSocket defence: a state-changing request (or a socket handshake) must
 * come from this console's own pages, i.e. its Origin (or failing that Referer) names this
 * console's scheme, host and port. The scheme is the connection's own (TLS or not), unless
 * TRUST_PROXY=loopback and the connection comes from this host: then a balancer ending TLS in
 * front (deploy/haproxy.cfg) tells it in X-Forwarded-Proto. No other proxy header is trusted.
 */
export type OriginCheckedRequest = {
  headers: { origin?: string; referer?: string; host?: string; "x-forwarded-proto"?: string | string[] };
  socket: object;
};

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function schemeOf({ headers, socket }: OriginCheckedRequest, trustProxy: string): "http:" | "https:" {
  if ("encrypted" in socket && socket.encrypted === true) return "https:";
  const forwarded = headers["x-forwarded-proto"];
  const from = "remoteAddress" in socket && typeof socket.remoteAddress === "string" ? socket.remoteAddress : "";
  if (trustProxy === "loopback" && typeof forwarded === "string" && LOOPBACK.test(from)) {
    return forwarded.split(",")[0]!.trim() === "https" ? "https:" : "http:";
  }
  return "http:";
}

/** `trustProxy`: the console's TRUST_PROXY ("" or "loopback"). */
export function isSameOrigin(request: OriginCheckedRequest, trustProxy = ""): boolean {
  const { headers } = request;
  const source = headers.origin ?? headers.referer;
  if (!source || !headers.host) return false;
  const scheme = schemeOf(request, trustProxy);
  try {
    const url = new URL(source);
    return url.protocol === scheme && url.host === headers.host;
  } catch {
    return false;
  }
}
