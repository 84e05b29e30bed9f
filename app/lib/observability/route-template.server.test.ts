import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { routeTemplates } from "./route-template.server";

const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({ id, parentId, path, index, module: {} });
const routes = Object.fromEntries(
  [
    route("root", undefined, ""),
    route("routes/login", "root", "login"),
    route("routes/_app", "root"),
    route("routes/_app._index", "routes/_app", undefined, true),
    route("routes/_app.users.($panel)", "routes/_app", "users/:panel?"),
    route("routes/resources.jobs.$id.resume", "root", "resources/jobs/:id/resume"),
    route("routes/_app.$", "routes/_app", "*"),
  ].map((r) => [r.id, r]),
) as unknown as ServerBuild["routes"];

describe("route templates", () => {
  const templateOf = routeTemplates(routes);

  it("labels a request by its route's template, never its ids or query", () => {
    expect(templateOf("/users/42")).toBe("/users/:panel?");
    expect(templateOf("/resources/jobs/0b1c/resume")).toBe("/resources/jobs/:id/resume");
    expect(templateOf("/login")).toBe("/login");
    expect(templateOf("/")).toBe("/");
  });

  it("labels a single-fetch data request as its page", () => {
    expect(templateOf("/users/7.data")).toBe("/users/:panel?");
    expect(templateOf("/_root.data")).toBe("/");
  });

  it("gives every unknown path the one splat label", () => {
    expect(templateOf("/no/such/page/123")).toBe("/*");
  });
});
