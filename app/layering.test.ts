/**
 * The console's layering (docs/architecture.md "Boundaries", ADR 0005), checked on the sources: machines import
 * nothing from the rest of app; lib imports no command, component or route; commands import no
 * component; components import no route.
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

/** The app folder an import lands in (`lib`, `components`, …), or null outside app. */
function folderOf(file: string, specifier: string): string | null {
  const target = specifier.startsWith("~/") ? join(APP, specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(file), specifier) : null;
  if (!target) return null;
  const inApp = relative(resolve(APP), resolve(target));
  return inApp.startsWith("..") ? null : inApp.split(/[\\/]/)[0]!;
}

describe("layering", () => {
  it("no folder imports what lies above it", () => {
    const breaches = sources(APP).flatMap((file) => {
      const layer = relative(APP, file).split(/[\\/]/)[0]!;
      const forbidden = FORBIDDEN[layer] ?? [];
      return [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)]
        .map((match) => match[1]!)
        .filter((specifier) => forbidden.includes(folderOf(file, specifier) ?? ""))
        .map((specifier) => `${file} → ${specifier}`);
    });
    expect(breaches).toEqual([]);
  });
});
