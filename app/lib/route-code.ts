/**
 * A screen's code loaded ahead of its first visit (issue 35): the modules of the routes that show
 * an address, imported once, as Remix imports them on the first visit (which then finds them
 * loaded), and nothing else: no loader is called, no data is read.
 */
import { matchRoutes } from "@remix-run/react";

type RouteObject = Parameters<typeof matchRoutes>[0][number];

/** What the page's route manifest (`window.__remixManifest`) says of a route. */
type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; module: string };

/** The route tree of the manifest's routes, for matching an address. */
function routeTree(routes: readonly ManifestRoute[], parentId?: string): RouteObject[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) => ({ id: route.id, path: route.path, index: route.index, children: route.index ? undefined : routeTree(routes, route.id) }) as RouteObject);
}

/** Imports the route modules that show each of `paths`; a module that fails is left to the visit, which reports it. */
export function loadRouteCode(paths: readonly string[]): void {
  const manifest = (window as { __remixManifest?: { routes: Record<string, ManifestRoute> } }).__remixManifest;
  if (!manifest) return;
  const tree = routeTree(Object.values(manifest.routes));
  const modules = new Set(paths.flatMap((path) => (matchRoutes(tree, path) ?? []).map((match) => manifest.routes[match.route.id!]!.module)));
  for (const module of modules) import(/* @vite-ignore */ module).catch(() => undefined);
}
