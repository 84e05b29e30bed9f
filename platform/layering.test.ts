/**
 * The platform's layering (ADR 0006, ADR 0008), checked on the sources as app/layering.test.ts
 * checks the console's: a module's routes import no other module's routes and no repository;
 * a repository imports no service; db/ imports no module; modules import each other in no
 * circle; no file of platform/ or protocol/ is in an import circle; app/ and platform/ never
 * import each other, and protocol/ imports neither. Each rule is also shown failing on a fixture.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

type Edge = { from: string; to: string };

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.includes(".test.") ? [path] : [];
  });

/** The repository-relative file an import names (`.js` → `.ts`), or null for a package. */
function targetOf(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return join("app", specifier.slice(2));
  if (!specifier.startsWith(".")) return null;
  return normalize(join(dirname(file), specifier)).replace(/\.js$/, ".ts");
}

function edgesOf(dirs: string[]): Edge[] {
  return dirs.flatMap(sources).flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].flatMap((match) => {
      const to = targetOf(file, match[1]!);
      return to === null ? [] : [{ from: file, to }];
    }),
  );
}

/** `platform/modules/<area>/…` → area. */
const moduleOf = (file: string) => /^platform\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
const isRoutes = (file: string) => moduleOf(file) !== null && /(^|-)routes\.ts$/.test(file.split("/").pop()!);
const isRepository = (file: string) => moduleOf(file) !== null && /(^|-)repository\.ts$/.test(file.split("/").pop()!);
const isService = (file: string) => moduleOf(file) !== null && /(^|-)service\.ts$/.test(file.split("/").pop()!);
const within = (file: string, folder: string) => !relative(folder, file).startsWith("..");

/** The circles of a graph: its strongly connected components of more than one node (Tarjan). */
function circles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) if (from !== to) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Every breach of the rules among `edges`, one line each. */
function breaches(edges: Edge[]): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const say = (rule: string) => found.push(`${rule}: ${from} → ${to}`);
    if (isRoutes(from) && isRoutes(to) && moduleOf(from) !== moduleOf(to)) say("routes import another module's routes");
    if (isRoutes(from) && isRepository(to)) say("routes import a repository");
    if (isRepository(from) && isService(to)) say("a repository imports a service");
    if (within(from, "platform/db") && moduleOf(to) !== null) say("db/ imports a module");
    if ((within(from, "app") && within(to, "platform")) || (within(from, "platform") && within(to, "app"))) say("app/ and platform/ import each other");
    if (within(from, "protocol") && (within(to, "app") || within(to, "platform"))) say("protocol/ imports a program");
  }
  const moduleEdges = edges.flatMap(({ from, to }) => {
    const [a, b] = [moduleOf(from), moduleOf(to)];
    return a && b && a !== b ? [{ from: a, to: b }] : [];
  });
  for (const circle of circles(moduleEdges)) found.push(`modules in a circle: ${circle.join(", ")}`);
  const platformEdges = edges.filter(({ from, to }) => [from, to].every((file) => within(file, "platform") || within(file, "protocol")));
  for (const circle of circles(platformEdges)) found.push(`files in a circle: ${circle.join(", ")}`);
  return found;
}

describe("platform layering", () => {
  it("the sources break no rule", () => {
    expect(breaches(edgesOf(["platform", "protocol", "app"]))).toEqual([]);
  });

  it("reads the imports it checks", () => {
    const edges = edgesOf(["platform"]);
    expect(edges).toContainEqual({ from: "platform/app.ts", to: "platform/modules/staff/routes.ts" });
    expect(edges).toContainEqual({ from: "platform/modules/bets/player-routes.ts", to: "platform/modules/players/access.ts" });
  });

  describe("fails on each kind of breach", () => {
    const one = (from: string, to: string) => breaches([{ from, to }]);

    it("routes importing another module's routes", () => {
      expect(one("platform/modules/staff/routes.ts", "platform/modules/accounts/routes.ts")).toEqual([
        "routes import another module's routes: platform/modules/staff/routes.ts → platform/modules/accounts/routes.ts",
      ]);
      expect(one("platform/modules/bets/player-routes.ts", "platform/modules/players/routes.ts")).toHaveLength(1);
      expect(one("platform/modules/bets/player-routes.ts", "platform/modules/bets/routes.ts")).toEqual([]);
    });

    it("routes importing a repository, their own or another's", () => {
      expect(one("platform/modules/sports/routes.ts", "platform/modules/sports/repository.ts")).toEqual([
        "routes import a repository: platform/modules/sports/routes.ts → platform/modules/sports/repository.ts",
      ]);
      expect(one("platform/modules/sports/feed-test-routes.ts", "platform/modules/sports/book-repository.ts")).toHaveLength(1);
    });

    it("a repository importing a service", () => {
      expect(one("platform/modules/bets/repository.ts", "platform/modules/ledger/service.ts")).toEqual([
        "a repository imports a service: platform/modules/bets/repository.ts → platform/modules/ledger/service.ts",
      ]);
    });

    it("db/ importing a module", () => {
      expect(one("platform/db/seed.ts", "platform/modules/bets/service.ts")).toEqual([
        "db/ imports a module: platform/db/seed.ts → platform/modules/bets/service.ts",
      ]);
      expect(one("platform/db/paging.ts", "platform/validation/schemas.ts")).toEqual([]);
    });

    it("modules importing each other in a circle, however long", () => {
      const found = breaches([
        { from: "platform/modules/accounts/service.ts", to: "platform/modules/settings/repository.ts" },
        { from: "platform/modules/settings/service.ts", to: "platform/modules/audit/repository.ts" },
        { from: "platform/modules/audit/repository.ts", to: "platform/modules/accounts/repository.ts" },
      ]);
      expect(found).toEqual(["modules in a circle: accounts, audit, settings"]);
    });

    it("files importing each other in a circle", () => {
      const found = breaches([
        { from: "platform/env.ts", to: "platform/sim/feed.ts" },
        { from: "platform/sim/feed.ts", to: "platform/env.ts" },
      ]);
      expect(found).toEqual(["files in a circle: platform/env.ts, platform/sim/feed.ts"]);
    });

    it("app/ and platform/ importing each other, and protocol/ importing either", () => {
      expect(one("app/lib/accounts.server.ts", "platform/modules/accounts/service.ts")).toHaveLength(1);
      expect(one("platform/realtime.ts", "app/lib/socket.client.ts")).toHaveLength(1);
      expect(one("protocol/calls.ts", "platform/app.ts")).toEqual(["protocol/ imports a program: protocol/calls.ts → platform/app.ts"]);
      expect(one("app/lib/api.server.ts", "protocol/calls.ts")).toEqual([]);
    });
  });
});
