import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import { SERIAL_CHROMIUM_RUN } from "./tests/fixtures/chromium";
import { E2E_PROJECTS, type E2eProject } from "./tests/fixtures/e2e-ports";

/**
 * Each project starts its own platform on a fresh temporary database, and the built console
 * pointed at it: `full` runs every scenario against the platform with all its extensions; `spec`
 * runs the scenarios tagged `@spec` again against PLATFORM_PROFILE=spec, an API with only the
 * spec's calls. Web servers belong to the config, not a project, so every run starts all four.
 */
type WebServer = Extract<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>[number];

const servers = (project: E2eProject): WebServer[] => {
  const { platformPort, consolePort } = E2E_PROJECTS[project];
  return [
    {
      command: `bash -c 'DATA_DIR="$(mktemp -d)/platform" exec node --import tsx platform/server.ts'`,
      url: `http://127.0.0.1:${platformPort}/api/health`,
      env: {
        PLATFORM_PORT: String(platformPort),
        PLATFORM_PROFILE: project,
        NODE_ENV: "test",
        // The console under test frames the scorecard page.
        SCORECARD_FRAME_ANCESTORS: `http://localhost:${consolePort} http://127.0.0.1:${consolePort}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // Its own store each run, as the platform its own database.
      command: `bash -c 'CONSOLE_DATA_DIR="$(mktemp -d)/console" exec node --import tsx server.ts'`,
      url: `http://127.0.0.1:${consolePort}/login`,
      env: {
        PORT: String(consolePort),
        NODE_ENV: "test",
        ADMIN_API_URL: `http://127.0.0.1:${platformPort}/api/admin`,
        SPORTS_API_URL: `http://127.0.0.1:${platformPort}/api/sports`,
        SOCKET_URL: `http://127.0.0.1:${platformPort}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ];
};


export default defineConfig({
  ...SERIAL_CHROMIUM_RUN,
  testDir: "tests/e2e",
  timeout: 30_000,
  // A run that hangs past this fails with its report, well inside CI's own limit (it takes about 15 minutes).
  globalTimeout: 45 * 60_000,
  expect: { timeout: 5_000 },
  projects: [
    { name: "full", use: { baseURL: `http://localhost:${E2E_PROJECTS.full.consolePort}` } },
    // The scenarios tagged SPEC_API (tests/e2e/fixtures.ts), again against an API with only the spec's calls.
    { name: "spec", grep: /@spec/, use: { baseURL: `http://localhost:${E2E_PROJECTS.spec.consolePort}` } },
  ],
  webServer: [...servers("full"), ...servers("spec")],
});
