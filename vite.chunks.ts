/**
 * The client build's chunks (docs/decisions/0011-client-chunks.md), apart from vite.config.ts so
 * that the end-to-end fixtures can read the runtime chunk's name without loading Vite's config.
 */
import type { GetManualChunk, ModuleInfo } from "rollup";
import type { Plugin } from "vite";

/**
 * The client's scripts grouped by the pages that load them: what every page loads (the root's and
 * the client entry's imports) as the libraries' runtime (`components`) and the app's own (`app`), what the signed-in
 * layout (`routes/_app.tsx`) and the sign-in page both import as "session", and what only the
 * layout imports as "shell". Every signed-in page loads the layout, so none loads more than before;
 * Rollup cannot know that (a screen's route looks loadable alone) and split those modules into a
 * chunk per set of routes sharing them: 40 scripts on every signed-in page. Route modules, the
 * client entry, and what only other routes import stay as Rollup splits them.
 */
export function pageChunks(): Plugin {
  return {
    name: "betdesk-page-chunks",
    config: (_config, { isSsrBuild }) =>
      isSsrBuild ? undefined : { build: { rollupOptions: { output: { manualChunks: chunkOf() } } } },
  };
}

/** React's and Remix's runtime, every page's: its own chunk, apart from the app's code (tests/e2e/fixtures.ts reads the name). */
export const RUNTIME_CHUNK = "components";

/** Each module's group, worked out once from the whole graph at the first module asked about. */
function chunkOf(): GetManualChunk {
  let groups: Map<string, string> | undefined;
  return (id, { getModuleIds, getModuleInfo }) => {
    groups ??= pageGroups([...getModuleIds()], getModuleInfo);
    return groups.get(id);
  };
}

function pageGroups(ids: readonly string[], info: (id: string) => ModuleInfo | null): Map<string, string> {
  const app = new URL("./app/", import.meta.url).pathname;
  const route = (file: string) => {
    const found = ids.find((id) => id.split("?")[0] === `${app}${file}`);
    // Renamed or moved: the groups would quietly fall back to Rollup's splitting (ADR 0011).
    if (!found) throw new Error(`vite.chunks.ts: no module app/${file} in the client build`);
    return found;
  };
  const isRoute = (id: string) => id.split("?")[0]!.startsWith(`${app}routes/`);
  const closure = (entries: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const next of info(id)?.importedIds ?? []) visit(next);
    };
    for (const entry of entries) visit(entry);
    return seen;
  };
  const clientEntries = ids.filter((id) => info(id)?.isEntry && !isRoute(id) && id.split("?")[0] !== `${app}root.tsx`);
  const everyPage = closure([route("root.tsx"), ...clientEntries]);
  const layout = closure([route("routes/_app.tsx")]);
  const signIn = closure([route("routes/login.tsx")]);
  const groups = new Map<string, string>();
  for (const id of new Set([...everyPage, ...layout])) {
    if (isRoute(id) || clientEntries.includes(id)) continue;
    if (everyPage.has(id)) groups.set(id, id.includes("/node_modules/") ? RUNTIME_CHUNK : "app");
    else groups.set(id, signIn.has(id) ? "session" : "shell");
  }
  return groups;
}
