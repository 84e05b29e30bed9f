import { describe, expect, it } from "vitest";
import { routeModulesByPath, type ManifestRoute } from "./route-code";

const route = (id: string, parentId: string | undefined, path: string | undefined, index = false): ManifestRoute => ({ id, parentId, path, index, module: `/assets/${id}.js` });
/** The manifest as a page at home holds it: the layout, home, Users (discovered from the sidebar's link) and the not-found route. */
const ROUTES = Object.fromEntries(
  [
    route("root", undefined, ""),
    route("routes/_app", "root", undefined),
    route("routes/_app._index", "routes/_app", undefined, true),
    route("routes/_app.users.($panel)", "routes/_app", "users/:panel?"),
    route("routes/_app.$", "routes/_app", "*"),
  ].map((one) => [one.id, one]),
);

describe("routeModulesByPath: the code a first visit loads", () => {
  it("names, for each address the manifest knows, the modules of every route that shows it", () => {
    expect(routeModulesByPath(ROUTES, ["/users", "/"])).toEqual([
      ["/assets/root.js", "/assets/routes/_app.js", "/assets/routes/_app.users.($panel).js"],
      ["/assets/root.js", "/assets/routes/_app.js", "/assets/routes/_app._index.js"],
    ]);
  });

  it("leaves an address the manifest has not discovered yet to its visit, rather than load the not-found route", () => {
    expect(routeModulesByPath(ROUTES, ["/jobs", "/users"])).toEqual([[], ["/assets/root.js", "/assets/routes/_app.js", "/assets/routes/_app.users.($panel).js"]]);
  });
});
