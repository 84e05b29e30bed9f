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
echo "== cluster"
# Two consoles and two platforms behind HAProxy (tests/cluster), when PostgreSQL, Redis, haproxy and prometheus answer here.
rm -f .cache/playwright-cluster.json
if bash scripts/cluster.sh check; then
  PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright-cluster.json npx playwright test -c playwright.cluster.config.ts --reporter=list,json
else
  echo "cluster scenario skipped: it needs PostgreSQL, Redis, haproxy and prometheus on this machine (docs/operations.md)"
fi
echo "== summary"
npx tsx scripts/test-summary.ts
