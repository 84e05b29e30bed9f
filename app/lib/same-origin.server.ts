/**
 * CSRF and cross-site WebSocket defence: a state-changing request (or a socket handshake) must
 * come from this console's own pages, i.e. its Origin (or failing that Referer) names this host.
 */
export function isSameOrigin(headers: { origin?: string; referer?: string; host?: string }): boolean {
  const source = headers.origin ?? headers.referer;
  if (!source || !headers.host) return false;
  try {
    return new URL(source).host === headers.host;
  } catch {
    return false;
  }
}
