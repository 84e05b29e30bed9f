import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/fixtures/chromium";
import { E2E_CONSOLE_PORT, E2E_PLATFORM_PORT } from "./tests/fixtures/e2e-ports";

/** The e2e run starts its own platform on a fresh temporary database, and the built console. */
const PLATFORM_PORT = E2E_PLATFORM_PORT;
const CONSOLE_PORT = E2E_CONSOLE_PORT;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? "line" : "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://localhost:${CONSOLE_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      command: `bash -c 'DATA_DIR="$(mktemp -d)/platform" exec node --import tsx platform/server.ts'`,
      url: `http://127.0.0.1:${PLATFORM_PORT}/api/health`,
      env: {
        PLATFORM_PORT: String(PLATFORM_PORT),
        NODE_ENV: "test",
        // The console under test frames the scorecard page.
        SCORECARD_FRAME_ANCESTORS: `http://localhost:${CONSOLE_PORT} http://127.0.0.1:${CONSOLE_PORT}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: "node --import tsx server.ts",
      url: `http://127.0.0.1:${CONSOLE_PORT}/login`,
      env: {
        PORT: String(CONSOLE_PORT),
        NODE_ENV: "test",
        ADMIN_API_URL: `http://127.0.0.1:${PLATFORM_PORT}/api/admin`,
        SPORTS_API_URL: `http://127.0.0.1:${PLATFORM_PORT}/api/sports`,
        SOCKET_URL: `http://127.0.0.1:${PLATFORM_PORT}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
