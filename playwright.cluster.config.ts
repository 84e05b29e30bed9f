import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/fixtures/chromium";
import { CLUSTER } from "./tests/cluster/cluster";

/**
 * The cluster scenario (tests/cluster/): two consoles and two platforms behind HAProxy, on one
 * PostgreSQL and one Redis, started by scripts/cluster.sh. `npm test` runs it only when those
 * answer here (scripts/test.sh); `npx playwright test -c playwright.cluster.config.ts` runs it alone.
 */
export default defineConfig({
  testDir: "tests/cluster",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? "line" : "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: "./tests/cluster/global-setup.ts",
  globalTeardown: "./tests/cluster/global-teardown.ts",
  use: {
    baseURL: CLUSTER.balancer,
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
