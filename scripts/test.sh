#!/usr/bin/env bash
# npm test: typecheck, unit + machine + platform integration tests, then end-to-end in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
echo "== typecheck"
npx tsc --noEmit
echo "== vitest"
npx vitest run
echo "== build"
npx remix vite:build >/dev/null
bash scripts/check-client-bundle.sh
echo "== playwright"
npx playwright test
