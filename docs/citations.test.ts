/**
 * Docs stand alone (issue 17). Every citation in the code resolves inside the repository, and no
 * machine's own path is written down:
 * - code never cites a document kept outside the repository: `spec §`, PROTOCOL.md,
 *   ARCHITECTURE.md, UX.md or DEVELOPERS.md (docs and the README never name those four files);
 * - `docs/<file>.md §N` (and `§N, §M`, `§N/§M` after it) needs that file and a heading starting
 *   `§N`; `docs/<file>.md "Text"` needs a heading, or a bold run-in label such as `**Ledger.**`,
 *   starting with Text. In docs, `other.md` and `[x](other.md)` resolve from the citing file's
 *   folder. A § in code that follows no such citation is an error, and so is an `ADR NNNN` without
 *   its file in docs/decisions/;
 * - no `/work/`, `/home/`, `/tmp/`, `/Users/`, `/root/` or `/mnt/` in Markdown, or in comments
 *   anywhere in the tree (string literals in code, such as a test's fake path, are not comments).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const CODE = ["app", "platform", "protocol", "db", "scripts", "bench", "tests", "server.ts"];
const SKIP = new Set(["node_modules", ".git", "build", "data", ".cache", "test-results", "playwright-report", "public"]);
const OUTSIDE = /\b(PROTOCOL|ARCHITECTURE|UX|DEVELOPERS)\.md\b/g;
const SPEC = /\b[Ss]pec\s*§/g;
const NUM = String.raw`§(\d+(?:\.\d+)*)`;
const SECTIONS = new RegExp(`${NUM}(?:\\s*(?:,|/|and|or)\\s*${NUM})*`, "y");
const FILE = /(?<![\w./-])((?:docs\/)?(?:[\w-]+\/)*[\w-]+\.md)\b|\]\(([\w./-]+\.md)\)/g;
const MACHINE = /(?<![\w.-])\/(?:work|home|tmp|Users|root|mnt)\//;

export type Source = { path: string; text: string };
type Read = (path: string) => string | null;

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;
const norm = (s: string) => s.toLowerCase().replace(/(…|\.\.\.)$/, "").trim();

/** A file's headings (without `#` and a leading `§N`), its § numbers and its bold run-in labels. */
function anchorsOf(text: string) {
  const headings = [...text.matchAll(/^#+\s+(.*)$/gm)].map((m) => m[1]!);
  const numbers = new Set(headings.map((h) => /^§(\d+(?:\.\d+)*)\b/.exec(h)?.[1]).filter(Boolean));
  const labels = [...text.matchAll(/^\s*(?:[-*]\s+)?\*\*([^*]+)\*\*/gm)].map((m) => m[1]!);
  const texts = [...headings.map((h) => h.replace(/^§[\d.]+\s*/, "")), ...labels].map(norm);
  return { numbers, texts };
}

/** The citation problems of one source, reading cited files through `read` (paths from the root). */
export function citationProblems({ path, text }: Source, read: Read): string[] {
  const inDocs = path.endsWith(".md");
  const problems: string[] = [];
  const at = (index: number, message: string) => problems.push(`${path}:${lineOf(text, index)}: ${message}`);
  for (const m of text.matchAll(OUTSIDE)) at(m.index!, `cites ${m[0]}, which is outside the repository`);
  if (!inDocs) for (const m of text.matchAll(SPEC)) at(m.index!, "cites the spec, which is outside the repository");
  const covered: Array<[number, number]> = [];
  for (const m of text.matchAll(FILE)) {
    const cited = (m[1] ?? m[2])!;
    if (/^(PROTOCOL|ARCHITECTURE|UX|DEVELOPERS)\.md$/.test(cited)) continue;
    if (!inDocs && !cited.startsWith("docs/")) continue;
    const file = cited.startsWith("docs/") || !inDocs ? cited : normalize(join(dirname(path), cited));
    const target = read(file);
    if (target === null) {
      at(m.index!, `cites ${cited}, which does not exist`);
      continue;
    }
    const after = m.index! + m[0].length;
    const rest = /^(?:'s)?[ \t]+(?=[§"])/.exec(text.slice(after));
    if (!rest) continue;
    const start = after + rest[0].length;
    const anchors = anchorsOf(target);
    SECTIONS.lastIndex = start;
    const sections = SECTIONS.exec(text);
    if (sections) {
      for (const n of sections[0].matchAll(new RegExp(NUM, "g")))
        if (!anchors.numbers.has(n[1]!)) at(m.index!, `cites ${cited} §${n[1]}, which has no such section`);
      covered.push([start, start + sections[0].length]);
    } else {
      const heading = /^"([^"\n]+)"/.exec(text.slice(start))?.[1];
      if (heading && !anchors.texts.some((t) => t.startsWith(norm(heading))))
        at(m.index!, `cites ${cited} "${heading}", which has no such heading`);
    }
  }
  if (!inDocs)
    for (const m of text.matchAll(/§/g))
      if (!covered.some(([a, b]) => m.index! >= a && m.index! < b)) at(m.index!, "a § that follows no document");
  for (const m of text.matchAll(/\bADR[ -]?(\d{4})\b/g))
    if (!(read("docs/decisions/") ?? "").split("\n").some((name) => name.startsWith(`${m[1]}-`)))
      at(m.index!, `cites ADR ${m[1]}, which is not in docs/decisions/`);
  return problems;
}

/** The comments of a source (Markdown: all of it), for the machine-path rule. */
export function commentsOf({ path, text }: Source): string {
  if (path.endsWith(".md")) return text;
  if (/\.(sh|ya?ml)$|(^|\/)run$/.test(path)) return [...text.matchAll(/(?:^|\s)#(?!!).*$/gm)].map((m) => m[0]).join("\n");
  const sql = path.endsWith(".sql");
  let out = "";
  let state: "code" | "line" | "block" | "'" | '"' | "`" = "code";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const two = text.slice(i, i + 2);
    if (state === "code") {
      if (c === "\\") i++;
      else if (two === (sql ? "--" : "//") || two === "/*") {
        state = two === "/*" ? "block" : "line";
        i++;
      }
      else if (c === "'" || (!sql && (c === '"' || c === "`"))) state = c;
    } else if (state === "line" || state === "block") {
      if ((state === "line" && c === "\n") || (state === "block" && two === "*/")) {
        if (state === "block") i++;
        state = "code";
        out += "\n";
      } else out += c;
    } else if (c === "\\") i++;
    else if (c === state || (c === "\n" && state !== "`")) state = "code";
  }
  return out;
}

export const machinePaths = (source: Source): string[] =>
  commentsOf(source)
    .split("\n")
    .filter((line) => MACHINE.test(line))
    .map((line) => `${source.path}: names a machine path: ${line.trim()}`);

const walk = (path: string): string[] =>
  statSync(path).isDirectory()
    ? readdirSync(path).flatMap((name) => (SKIP.has(name) ? [] : walk(path === "." ? name : join(path, name))))
    : [path];
const readRepo: Read = (path) =>
  !existsSync(path) ? null : statSync(path).isDirectory() ? readdirSync(path).join("\n") : readFileSync(path, "utf8");
const source = (path: string): Source => ({ path, text: readFileSync(path, "utf8") });
const TEXT = /\.(tsx?|[mc]?js|css|sql|sh|ya?ml|md)$|^\.ci\/run$/;

describe("docs stand alone", () => {
  it("every citation in the code, the docs and the README resolves inside the repository", () => {
    const files = [...CODE.flatMap(walk), ...walk("docs"), "README.md"].filter((f) => TEXT.test(f) && f !== "docs/citations.test.ts");
    expect(files.flatMap((f) => citationProblems(source(f), readRepo))).toEqual([]);
  });

  it("no machine path in any Markdown file or comment of the tree", () => {
    const files = walk(".").filter((f) => TEXT.test(f) && f !== "docs/citations.test.ts");
    expect(files.flatMap((f) => machinePaths(source(f)))).toEqual([]);
  });

  it("fails on each kind of breach (fixtures)", () => {
    const docs: Record<string, string> = {
      "docs/product.md": "# Product\n## §2.5 Users\n## §9 Constants\n",
      "docs/protocol.md": "## Sports book (feed)\n- **Ledger.** rows\n",
      "docs/decisions/": "0001-cookie.md",
    };
    const read: Read = (path) => docs[path] ?? null;
    const code = [
      "// spec §2.5 and PROTOCOL.md \"Pages\"; UX.md keys",
      "// docs/product.md §2.5, §9/§9 and docs/protocol.md \"Sports book\", \"Ledger\"; ADR 0001",
      "// docs/product.md §2.6, §7; docs/nope.md; docs/protocol.md \"Pages\"; (§4); ADR 0042",
      'readFileSync("docs/protocol.md", "utf8"); docs/protocol.md "Ledger"',
    ].join("\n");
    expect(citationProblems({ path: "app/x.ts", text: code }, read)).toEqual([
      "app/x.ts:1: cites PROTOCOL.md, which is outside the repository",
      "app/x.ts:1: cites UX.md, which is outside the repository",
      "app/x.ts:1: cites the spec, which is outside the repository",
      "app/x.ts:3: cites docs/product.md §2.6, which has no such section",
      "app/x.ts:3: cites docs/product.md §7, which has no such section",
      "app/x.ts:3: cites docs/nope.md, which does not exist",
      'app/x.ts:3: cites docs/protocol.md "Pages", which has no such heading',
      "app/x.ts:1: a § that follows no document",
      "app/x.ts:3: a § that follows no document",
      "app/x.ts:3: cites ADR 0042, which is not in docs/decisions/",
    ]);
    const doc = "Spec §9 as [protocol](protocol.md) \"Ledger\" and product.md §3; see UX.md.\n";
    expect(citationProblems({ path: "docs/notes.md", text: doc }, read)).toEqual([
      "docs/notes.md:1: cites UX.md, which is outside the repository",
      "docs/notes.md:1: cites product.md §3, which has no such section",
    ]);
    const comment = 'const dir = "/tmp/x"; // written to /home/me/out\n/* ok */ -- /work/a\n';
    expect(machinePaths({ path: "bench/a.ts", text: comment })).toEqual(["bench/a.ts: names a machine path: written to /home/me/out"]);
    expect(machinePaths({ path: "platform/db/migrations/001.sql", text: "SELECT '/tmp/x'; -- see /work/a\n" })).toHaveLength(1);
    expect(machinePaths({ path: "docs/x.md", text: "Run `ls /tmp/`.\n" })).toHaveLength(1);
  });
});
