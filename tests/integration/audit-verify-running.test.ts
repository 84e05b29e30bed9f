/**
 * `npm run audit:verify` beside a running console on the embedded store (issue 29): PGlite is one
 * process's files, so verify refuses a store a live process holds rather than open it a second
 * time (which lost the console's later entries), a second console is refused likewise, and a
 * killed console's lock does not block the next start. Nothing written before the kill is lost.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it, onTestFinished } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;

/** `node --import tsx <script>` on the store in `dataDir`. */
const run = (script: string, dataDir: string) =>
  spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env: { ...process.env, CONSOLE_DATA_DIR: dataDir, CONSOLE_DATABASE_URL: "" } });

/** Its exit code and everything it printed. */
function finished(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

const verify = (dataDir: string) => finished(run("scripts/audit-verify.ts", dataDir));

/** A store writer (tests/integration/support/store-writer.ts) and the last seq it reported committed. */
function startWriter(dataDir: string) {
  const child = run("tests/integration/support/store-writer.ts", dataDir);
  onTestFinished(() => void child.kill("SIGKILL"));
  const state = { written: 0n };
  const waiters: Array<{ atLeast: bigint; resolve: () => void }> = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const seq = /^written (\d+)$/.exec(line)?.[1];
    if (!seq) return;
    state.written = BigInt(seq);
    for (const waiter of waiters.filter((each) => state.written >= each.atLeast)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const wrote = (atLeast: bigint) => new Promise<void>((resolve) => (state.written >= atLeast ? resolve() : waiters.push({ atLeast, resolve })));
  return { child, state, wrote };
}

describe("audit:verify beside a running console on the embedded store", () => {
  it("refuses while the console writes, as a second console does, and loses nothing when the console is killed", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), "audit-verify-")), "console");
    const writer = startWriter(dataDir);
    await writer.wrote(20n);

    const during = await verify(dataDir);
    expect(during.code).toBe(2);
    expect(during.stderr).toContain(`in use by process ${writer.child.pid}`);
    expect(during.stdout).not.toContain("audit trail intact");

    const second = await finished(run("tests/integration/support/store-writer.ts", dataDir));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`in use by process ${writer.child.pid}`);

    const before = writer.state.written;
    await writer.wrote(before + 20n);
    const exited = new Promise((resolve) => writer.child.on("exit", resolve));
    writer.child.kill("SIGKILL");
    await exited;
    const written = writer.state.written;

    // The killed console's lock names a dead process: it blocks neither verify nor a restart.
    const after = await verify(dataDir);
    expect(after.stderr).toBe("");
    expect(after.code).toBe(0);
    const entries = BigInt(/audit trail intact: (\d+) entries/.exec(after.stdout)?.[1] ?? "0");
    expect(entries).toBeGreaterThanOrEqual(written);

    const restarted = startWriter(dataDir);
    await restarted.wrote(entries + 1n);
    const stopped = new Promise((resolve) => restarted.child.on("exit", resolve));
    restarted.child.kill("SIGKILL");
    await stopped;
    expect((await verify(dataDir)).stdout).toMatch(/audit trail intact/);
    // Six processes, each starting Node, tsx and PGlite: 19 s alone, 30 s beside the other Vitest pass.
  }, 120_000);
});
