import { defineConfig } from "@playwright/test";
import { CHROMIUM_RUN } from "./tests/fixtures/chromium";

/**
 * `full` runs every scenario against the platform with all its extensions; `spec` runs the
 * scenarios tagged `@spec` again against PLATFORM_PROFILE=spec, an API with only the spec's calls.
 * Each worker starts its own platform on a fresh temporary database and the built console pointed
 * at it, for its project (the `stack` fixture, tests/e2e/fixtures.ts): two workers run two files at
 * once without sharing data, which on 2 cores fills the time one worker leaves idle
 * (docs/benchmarks.md, "The test suite"). A file's scenarios stay in one worker, in order.
 */
export default defineConfig({
  ...CHROMIUM_RUN,
  workers: 2,
  testDir: "tests/e2e",
  // A scenario's time says nothing (issue 35): these limits only end a hang. The same run takes 2.5 times as long
  // on some machines of this kind as on others (docs/benchmarks.md "The test suite"), so they leave room for that.
  timeout: 60_000,
  // A run that hangs past this fails with its report, well inside CI's own limit (it takes 6 to 15 minutes).
  globalTimeout: 45 * 60_000,
  expect: { timeout: 10_000 },
  projects: [
    { name: "full" },
    // The scenarios tagged SPEC_API (tests/e2e/fixtures.ts), again against an API with only the spec's calls.
    { name: "spec", grep: /@spec/ },
  ],
});
