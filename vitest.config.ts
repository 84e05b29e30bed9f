import { defineConfig } from "vitest/config";

// Integration files share ONE database per project: `isolate: false` keeps the helper's
// module-level database across files and `fileParallelism: false` keeps them in one
// worker, so PGlite (3–4 s to start) starts once. Tests isolate themselves by data.
const integration = {
  include: ["tests/integration/**/*.test.ts"],
  isolate: false,
  fileParallelism: false,
};

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    setupFiles: ["tests/fixtures/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Threads start a file's fresh modules sooner than forks: 88 and 82 s → 72 and 59 s for this project alone.
      { extends: true, test: { name: "unit", pool: "threads", include: ["{app,protocol,platform,db,scripts}/**/*.test.{ts,tsx}", "docs/**/*.test.ts"] } },
      { extends: true, test: { name: "integration", ...integration } },
      // The same suite against PostgreSQL, in a throwaway schema, when a server is given.
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "integration-pg",
                ...integration,
                globalSetup: ["tests/integration/support/postgres-schema.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
