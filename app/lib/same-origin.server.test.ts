import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./same-origin.server";

const plain = {};
const tls = { encrypted: true };
const check = (headers: { origin?: string; referer?: string; host?: string }, socket: object = plain) => isSameOrigin({ headers, socket });

describe("same-origin check", () => {
  it("accepts this host by Origin or Referer", () => {
    expect(check({ origin: "http://console.test:3000", host: "console.test:3000" })).toBe(true);
    expect(check({ referer: "http://console.test:3000/users?x=1", host: "console.test:3000" })).toBe(true);
    expect(check({ origin: "https://console.test", host: "console.test" }, tls)).toBe(true);
  });
  it("refuses another site, a missing source and nonsense", () => {
    expect(check({ origin: "http://evil.example", host: "console.test:3000" })).toBe(false);
    expect(check({ host: "console.test:3000" })).toBe(false);
    expect(check({ origin: "not a url", host: "console.test:3000" })).toBe(false);
    expect(check({ origin: "http://console.test:3000" })).toBe(false);
  });
  it("refuses the same host and port under another scheme", () => {
    expect(check({ origin: "https://console.test:3000", host: "console.test:3000" })).toBe(false);
    expect(check({ referer: "https://console.test:3000/users", host: "console.test:3000" })).toBe(false);
    expect(check({ origin: "http://console.test:443", host: "console.test:443" }, tls)).toBe(false);
  });
  it("takes the scheme from X-Forwarded-Proto only from a connection of TRUSTED_PROXIES", () => {
    const loopback = ["127.0.0.0/8", "::1"];
    const behindTls = { origin: "https://console.test", host: "console.test", "x-forwarded-proto": "https" };
    expect(isSameOrigin({ headers: behindTls, socket: { remoteAddress: "127.0.0.1" } }, loopback)).toBe(true);
    expect(isSameOrigin({ headers: behindTls, socket: { remoteAddress: "::ffff:127.0.0.1" } }, loopback)).toBe(true);
    expect(isSameOrigin({ headers: behindTls, socket: { remoteAddress: "127.0.0.1" } })).toBe(false);
    expect(isSameOrigin({ headers: behindTls, socket: { remoteAddress: "10.0.0.7" } }, loopback)).toBe(false);
    // Forwarded as plain HTTP: an https page is another origin.
    expect(isSameOrigin({ headers: { ...behindTls, "x-forwarded-proto": "http" }, socket: { remoteAddress: "127.0.0.1" } }, loopback)).toBe(false);
  });
  it("refuses the same host on another port", () => {
    expect(check({ origin: "http://console.test:3001", host: "console.test:3000" })).toBe(false);
  });
});
