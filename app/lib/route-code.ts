/**
 * A screen's code loaded ahead of its first visit (issue 35): the modules of the routes that show
 * an address, imported once, as Remix imports them on the first visit (which then finds them
 * loaded), and nothing else: no loader is called, no data is read.
 *
 * Routes are discovered lazily (remix.config.js, `v3_lazyRouteDiscovery`): the page's manifest
 * holds the routes of the links it rendered (the sidebar's) and of the screens seen. An address
 * the manifest does not know yet matches only the not-found route, and is left to its visit.
 */
import { matchRoutes } from "@remix-run/react";

type RouteObject = Parameters<typeof matchRoutes>[0][number];

/** What the page's route manifest (`window.__remixManifest`) says of a route. */
export type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; module: string };

/** The route tree of the manifest's routes, for matching an address. */
function routeTree(routes: readonly ManifestRoute[], parentId?: string): RouteObject[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) => ({ id: route.id, path: route.path, index: route.index, children: route.index ? undefined : routeTree(routes, route.id) }) as RouteObject);
}

/** For each of `paths`, the modules of the routes that show it; none where only the not-found route (`*`) matches. */
export function routeModulesByPath(routes: Readonly<Record<string, ManifestRoute>>, paths: readonly string[]): string[][] {
  const tree = routeTree(Object.values(routes));
  return paths.map((path) => {
    const matches = matchRoutes(tree, path) ?? [];
    return matches.at(-1)?.route.path === "*" ? [] : matches.map((match) => routes[match.route.id!]!.module);
  });
}

/**
 * Imports the route modules that show each of `paths` (each module once), and answers the paths
 * whose modules all loaded. Only those may be read ahead: Remix reloads the whole page when a
 * route's module fails to load, which a read ahead while the console is unreachable (a restart)
 * would otherwise cause, losing what the operator had open. A module that fails is left to the visit.
 */
export async function loadRouteCode(paths: readonly string[]): Promise<string[]> {
  const manifest = (window as { __remixManifest?: { routes: Record<string, ManifestRoute> } }).__remixManifest;
  if (!manifest) return [];
  const imports = new Map<string, Promise<boolean>>();
  const load = (module: string) => {
    if (!imports.has(module)) imports.set(module, import(/* @vite-ignore */ module).then(() => true, () => false));
    return imports.get(module)!;
  };
  const loaded = await Promise.all(
    routeModulesByPath(manifest.routes, paths).map(async (modules) => modules.length > 0 && (await Promise.all(modules.map(load))).every(Boolean)),
  );
  return paths.filter((_, index) => loaded[index]);
}
