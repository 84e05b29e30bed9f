/**
 * The route template a console request reached (`/users/:panel?`, `/resources/jobs/:id/resume`),
 * never its raw path: what the request's log line and the HTTP metrics are labelled with.
 */
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

type Manifest = ServerBuild["routes"];

function treeOf(routes: Manifest, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => ({ id: route!.id, path: route!.path, index: route!.index, children: treeOf(routes, route!.id) }) as AgnosticRouteObject);
}

/** Templates by the build's route table; `unmatched` for a path no route takes. */
export function routeTemplates(routes: Manifest): (pathname: string) => string {
  const tree = treeOf(routes);
  return (pathname) => {
    // A single-fetch data request (`/users.data`, `/_root.data`) is its page's route.
    const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length).replace(/\/_root$/, "/") : pathname;
    const matches = matchRoutes(tree, page || "/");
    if (!matches) return "unmatched";
    const segments = matches.map((match) => match.route.path).filter((path): path is string => Boolean(path));
    return `/${segments.join("/")}`.replace(/\/+/g, "/");
  };
}
