/**
 * IP addresses and CIDR ranges (IPv4 and IPv6, `ipaddr.js`): the sign-in allowlist and
 * TRUSTED_PROXIES (ADR 0010). Browser-safe: the allowlist form checks its ranges before sending.
 */
import ipaddr from "ipaddr.js";

/** A range as written (`10.0.0.0/8`, `2001:db8::/32`, or one address), or null when it is none. */
export function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const value = text.trim();
  if (ipaddr.isValidCIDR(value)) return ipaddr.parseCIDR(value);
  if (!ipaddr.isValid(value)) return null;
  const address = ipaddr.parse(value);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

/** The ranges of a comma- or line-separated list, blanks dropped. */
export const rangesOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((range) => range.trim())
    .filter(Boolean);

/** Whether `address` (an IPv4-mapped IPv6 address counts as its IPv4 one) lies in one of `ranges`. */
export function isAddressIn(address: string, ranges: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return ranges.some((text) => {
    const range = parseRange(text);
    return range !== null && range[0].kind() === parsed.kind() && parsed.match(range);
  });
}
