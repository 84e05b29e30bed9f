#!/usr/bin/env bash
# npm test: typecheck, unit + machine + platform integration tests, then end-to-end in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
mkdir -p .cache
echo "== typecheck"
npx tsc --noEmit
echo "== vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest.json
echo "== build"
npx remix vite:build >/dev/null
bash scripts/check-client-bundle.sh
echo "== playwright"
PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright.json npx playwright test --reporter=list,json
echo "== summary"
npx tsx scripts/test-summary.ts
