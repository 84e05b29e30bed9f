import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["{app,protocol,platform,tests/integration}/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/fixtures/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
