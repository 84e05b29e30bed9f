/**
 * The console's layering (docs/architecture.md "Boundaries", ADR 0005), checked on the sources: machines import
 * nothing from the rest of app; lib imports no command, component or route; commands import no
 * component; components import no route; and the shared UI (components/ui) knows no desk.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { describe, expect, it } from "vitest";

const APP = "app";
const FORBIDDEN: Record<string, readonly string[]> = {
  machines: ["lib", "commands", "components", "routes", "styles"],
  lib: ["commands", "components", "routes"],
  commands: ["components", "routes"],
  components: ["routes"],
};

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.includes(".test.") ? [path] : [];
  });

/** Where an import lands inside app (`lib/format`, `commands/bets`), or null outside app. */
function targetOf(file: string, specifier: string): string | null {
  const target = specifier.startsWith("~/") ? join(APP, specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(file), specifier) : null;
  if (!target) return null;
  const inApp = relative(resolve(APP), resolve(target));
  return inApp.startsWith("..") ? null : inApp.split(/[\\/]/).join("/");
}

/** The app folder an import lands in (`lib`, `components`, …), or null outside app. */
const folderOf = (file: string, specifier: string): string | null => targetOf(file, specifier)?.split("/")[0] ?? null;

const importsOf = (file: string): string[] => [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)].map((match) => match[1]!);

/** The desks: each has its components in components/<desk>/ and its commands in commands/<desk>.ts. */
const DESKS = readdirSync(join(APP, "components")).filter((name) => name !== "ui" && statSync(join(APP, "components", name)).isDirectory());

/** What components/ui may not import: a desk's components or commands, or a server module. */
function isDeskOrServer(target: string): boolean {
  const path = target.replace(/\.tsx?$/, "");
  const [folder, name = ""] = path.split("/");
  return ((folder === "components" || folder === "commands") && DESKS.includes(name)) || (folder === "lib" && path.endsWith(".server"));
}

describe("layering", () => {
  it("no folder imports what lies above it", () => {
    const breaches = sources(APP).flatMap((file) => {
      const layer = relative(APP, file).split(/[\\/]/)[0]!;
      const forbidden = FORBIDDEN[layer] ?? [];
      return importsOf(file)
        .filter((specifier) => forbidden.includes(folderOf(file, specifier) ?? ""))
        .map((specifier) => `${file} → ${specifier}`);
    });
    expect(breaches).toEqual([]);
  });

  it("the shared UI knows no desk: no desk's components or commands, no server module", () => {
    expect(DESKS).toContain("accounts");
    const breaches = sources(join(APP, "components", "ui")).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => isDeskOrServer(targetOf(file, specifier) ?? ""))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(breaches).toEqual([]);
  });
});
