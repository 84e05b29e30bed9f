/**
 * `npx tsx bench/cpu-profile.ts <file.cpuprofile> <spans.json>`: where a process's CPU went during the spans a
 * benchmark timed (bench/settle-market.bench.ts writes them with BENCH_CPU_PROFILE): busy and idle time, then self
 * time by source (the package, or the module of the repository) and by function, summed over the spans.
 */
import { readFileSync } from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };

const [file, spansFile] = process.argv.slice(2);
if (!file || !spansFile) throw new Error("usage: npx tsx bench/cpu-profile.ts <file.cpuprofile> <spans.json>");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
// Microseconds on the clock the profile's samples are timed by (process.hrtime's).
const spans = JSON.parse(readFileSync(spansFile, "utf8")) as Array<{ from: number; to: number }>;
const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));

/** A frame's source: its package under node_modules, else its module in the repository (or the built console). */
function sourceOf({ url, functionName }: Node["callFrame"]): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const inModules = url.split("node_modules/").at(-1)!;
  if (inModules !== url) return inModules.split("/").slice(0, inModules.startsWith("@") ? 2 : 1).join("/");
  if (url.startsWith("node:") || url.startsWith("wasm:")) return url.split("/")[0]!;
  return url.match(/\/((?:app|platform|db|protocol|build)\/[^?]*|server\.ts)/)?.[1] ?? url;
}

const bySource = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (totals: Map<string, number>, key: string, us: number) => totals.set(key, (totals.get(key) ?? 0) + us);
let sampled = 0;
let at = profile.startTime;
for (const [i, id] of profile.samples.entries()) {
  const us = profile.timeDeltas[i]!;
  at += us;
  if (!spans.some((span) => at >= span.from && at <= span.to)) continue;
  const frame = frames.get(id)!;
  const source = sourceOf(frame);
  sampled += us;
  add(bySource, source, us);
  add(byFunction, `${frame.functionName || "(anonymous)"} ${source}:${frame.lineNumber + 1}`, us);
}

const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
const wall = spans.reduce((sum, span) => sum + span.to - span.from, 0);
const busy = sampled - (bySource.get("(idle)") ?? 0);
console.log(`spans ${ms(wall)}, sampled ${ms(sampled)}, busy ${ms(busy)} (${((100 * busy) / wall).toFixed(0)} % of the spans)`);
for (const [title, totals, count] of [["self time by source", bySource, 20], ["self time by function", byFunction, 30]] as const) {
  console.log(`${title}:`);
  for (const [name, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${ms(us).padStart(9)}  ${name}`);
}
