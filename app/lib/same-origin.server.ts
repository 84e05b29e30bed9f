/**
 * CSRF and cross-site WebSocket defence: a state-changing request (or a socket handshake) must
 * come from this console's own pages, i.e. its Origin (or failing that Referer) names this
 * console's scheme, host and port. The scheme is the connection's own (TLS or not): the console
 * trusts no proxy header for it.
 */
export type OriginCheckedRequest = {
  headers: { origin?: string; referer?: string; host?: string };
  socket: object;
};

export function isSameOrigin({ headers, socket }: OriginCheckedRequest): boolean {
  const source = headers.origin ?? headers.referer;
  if (!source || !headers.host) return false;
  const scheme = "encrypted" in socket && socket.encrypted === true ? "https:" : "http:";
  try {
    const url = new URL(source);
    return url.protocol === scheme && url.host === headers.host;
  } catch {
    return false;
  }
}
