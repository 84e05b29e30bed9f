import { defineConfig } from "@playwright/test";
import { CHROMIUM_RUN } from "./tests/fixtures/chromium";
import { CLUSTER } from "./tests/cluster/cluster";

/**
 * The cluster scenario (tests/cluster/): two consoles and two platforms behind HAProxy, on one
 * PostgreSQL and one Redis, started by scripts/cluster.sh. `npm test` runs it only when those
 * answer here (scripts/test.sh); `npx playwright test -c playwright.cluster.config.ts` runs it alone.
 */
export default defineConfig({
  ...CHROMIUM_RUN,
  // One worker: its scenarios share one cluster, and some restart its processes.
  workers: 1,
  testDir: "tests/cluster",
  // Not test-results/: npm test runs this beside the main run, and each run empties its own output directory as it starts.
  outputDir: ".cache/cluster-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: "./tests/cluster/global-setup.ts",
  globalTeardown: "./tests/cluster/global-teardown.ts",
  use: { ...CHROMIUM_RUN.use, baseURL: CLUSTER.balancer },
});
