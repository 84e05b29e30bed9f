import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

// Integration files share ONE database per project: `isolate: false` keeps the helper's
// module-level database across files and `fileParallelism: false` keeps them in one
// worker, so PGlite (3–4 s to start) starts once. Tests isolate themselves by data.
const integration = {
  include: ["tests/integration/**/*.test.ts"],
  isolate: false,
  fileParallelism: false,
};
/**
 * Files that open no database of their pass: audit-verify-running starts consoles on the embedded
 * store whatever the pass (it clears CONSOLE_DATABASE_URL), so the PostgreSQL pass would run the
 * same 15 s of processes a second time (docs/benchmarks.md, "The test suite").
 */
const EMBEDDED_ONLY = ["tests/integration/audit-verify-running.test.ts"];

const UNIT_ROOTS = ["app", "protocol", "platform", "db", "scripts", "docs"];
const UNIT_FILE = /\.test\.tsx?$/;
/**
 * Unit files that replace modules or globals (`vi.mock`, `vi.stubGlobal`…) need modules of their
 * own: without isolation a module another file loaded first keeps its real imports, and a mock
 * stays for the files after. Found by reading each file, so a new one lands in the right project.
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/;
const unitFiles = UNIT_ROOTS.flatMap((root) =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => UNIT_FILE.test(name) && !name.includes("node_modules"))
    .map((name) => `${root}/${name}`),
);
const unitFilesReplacingModules = unitFiles.filter((file) => REPLACES_MODULES.test(readFileSync(file, "utf8")));

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    setupFiles: ["tests/fixtures/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Modules shared across files, as the integration files do: the project alone 25 → 9 s on 2 cores
      // (docs/benchmarks.md, "The test suite"). Each file still runs its own tests in order.
      { extends: true, test: { name: "unit", pool: "threads", isolate: false, include: unitFiles, exclude: unitFilesReplacingModules } },
      // Threads start a file's fresh modules sooner than forks.
      { extends: true, test: { name: "unit-isolated", pool: "threads", include: unitFilesReplacingModules } },
      { extends: true, test: { name: "integration", ...integration } },
      // The same suite against PostgreSQL, in a throwaway schema, when a server is given.
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "integration-pg",
                ...integration,
                exclude: EMBEDDED_ONLY,
                globalSetup: ["tests/integration/support/postgres-schema.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
