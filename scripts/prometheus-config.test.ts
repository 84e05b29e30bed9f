/**
 * The Prometheus configuration and alert rules pass `promtool check` (Debian's prometheus package;
 * skipped where it is not installed), and every metric an alert reads is one betdesk exports.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const promtool = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
})();

const DEPLOY = new URL("../deploy/", import.meta.url).pathname;
const read = (path: string) => readFileSync(new URL(path, new URL("../deploy/", import.meta.url)), "utf8");

describe("Prometheus configuration", () => {
  it.skipIf(!promtool)("promtool checks the alert rules and the configuration", () => {
    expect(execFileSync(promtool!, ["check", "rules", "alerts.yml"], { cwd: DEPLOY, encoding: "utf8" })).toMatch(/SUCCESS: 5 rules found/);
    expect(execFileSync(promtool!, ["check", "config", "prometheus.yml"], { cwd: DEPLOY, encoding: "utf8" })).toMatch(/SUCCESS/);
  });

  it("alerts only on metrics the console or the platform exports", () => {
    const exported = [read("../app/lib/observability/metrics.server.ts"), read("../platform/metrics.ts")].join("\n");
    const used = new Set([...read("alerts.yml").matchAll(/\b(betdesk_[a-z_]+?)(?:_count|_sum|_bucket)?\b/g)].map((match) => match[1]!));
    expect(used.size).toBeGreaterThan(3);
    for (const name of used) expect(exported, name).toContain(`"${name}"`);
  });
});
