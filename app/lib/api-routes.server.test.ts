import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CALLS } from "../../protocol/calls";
import { API_ROUTES, parseRouting, resolveUrl } from "./api-routes.server";

const bases = { admin: "http://127.0.0.1:4000/api/admin", sports: "http://127.0.0.1:4000/api/sports/" };

describe("API routing table", () => {
  it("joins a path to the chosen API's base", () => {
    expect(resolveUrl(bases, "admin", "/b2c/admin").url.href).toBe("http://127.0.0.1:4000/api/admin/b2c/admin");
    expect(resolveUrl(bases, "sports", "/market-bets").url.href).toBe("http://127.0.0.1:4000/api/sports/market-bets");
  });

  it("sends ./ paths to the admin API root without the admin segment (docs/product.md §7.1)", () => {
    expect(resolveUrl(bases, "admin", "./matches/cricket").url.href).toBe("http://127.0.0.1:4000/api/matches/cricket");
  });

  it("fills and encodes path parameters and reports which it used", () => {
    const { url, consumed } = resolveUrl(bases, "admin", "/is-logouted/:udid", { udid: "a b/c", other: 1 });
    expect(url.href).toBe("http://127.0.0.1:4000/api/admin/is-logouted/a%20b%2Fc");
    expect([...consumed]).toEqual(["udid"]);
  });

  it("refuses a missing path parameter", () => {
    expect(() => resolveUrl(bases, "admin", "/is-logouted/:udid", {})).toThrow(/udid/);
  });

  it("reads overrides from API_ROUTING and rejects unknown names or APIs", () => {
    expect(parseRouting(" permissions=sports , login=admin ")).toEqual({ permissions: "sports", login: "admin" });
    expect(parseRouting("")).toEqual({});
    expect(() => parseRouting("nope=sports")).toThrow(/unknown call/);
    expect(() => parseRouting("login=elsewhere")).toThrow(/admin or sports/);
  });

  it("routes every call of protocol/calls.ts, and API_ROUTING may move any of them", () => {
    expect(API_ROUTES).toBe(CALLS);
    const names = Object.keys(CALLS);
    expect(Object.keys(parseRouting(names.map((name) => `${name}=sports`).join(",")))).toEqual(names);
  });

  it("accepts the API_ROUTING examples the README and env.server.ts give", () => {
    const examples = [
      ...readFileSync("README.md", "utf8").matchAll(/`API_ROUTING` .*?e\.g\. `([^`]+)`/g),
      ...readFileSync("app/lib/env.server.ts", "utf8").matchAll(/APIs: `([^`]+)`/g),
    ].map((match) => match[1]!);
    expect(examples).toHaveLength(2);
    for (const example of examples) expect(() => parseRouting(example)).not.toThrow();
  });
});
