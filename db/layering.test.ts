/**
 * The repository's two programs never import each other (README "Architecture", ADR 0008): app/
 * (and server.ts) may reach outside app/ only into protocol/ and db/; platform/ only into protocol/
 * and db/; db/ and protocol/ into neither program.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ALLOWED: Record<string, readonly string[]> = {
  app: ["app", "protocol", "db"],
  platform: ["platform", "protocol", "db"],
  protocol: ["protocol"],
  db: ["db"],
};

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(name) && !name.includes(".test.") ? [path] : [];
  });

/** The top-level folder a relative or `~/` import lands in, or null for a package. */
function topOf(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return "app";
  if (!specifier.startsWith(".")) return null;
  return relative(resolve("."), resolve(dirname(file), specifier)).split(/[\\/]/)[0]!;
}

describe("program boundaries", () => {
  it.each(Object.entries(ALLOWED))("%s imports only %j", (folder, allowed) => {
    const breaches = sources(folder).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)]
        .map((match) => match[1]!)
        .filter((specifier) => {
          const top = topOf(file, specifier);
          return top !== null && !allowed.includes(top);
        })
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(breaches).toEqual([]);
  });
});
