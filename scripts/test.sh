#!/usr/bin/env bash
# npm test: typecheck, unit + machine + platform integration tests, then end-to-end in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall time, printed at the end whatever the outcome, so that a slower suite shows (issue 35).
phase_names=()
phase_seconds=()
phase() {
  phase_names+=("$1")
  phase_seconds+=("$SECONDS")
  echo "== $1"
}
print_phase_times() {
  local status=$? end=$SECONDS i
  echo "== wall time per phase"
  for i in "${!phase_names[@]}"; do
    local next=${phase_seconds[$((i + 1))]:-$end}
    printf '%-12s %5d s\n' "${phase_names[$i]}" "$((next - phase_seconds[i]))"
  done
  printf '%-12s %5d s\n' "total" "$end"
  return "$status"
}
trap print_phase_times EXIT
phase chromium
bash scripts/ensure-chromium.sh
mkdir -p .cache
phase typecheck
npx tsc --noEmit
phase vitest
# Two Vitest processes side by side (issue 35): on 2 cores Vitest runs one worker, so its projects
# ran one after another, the integration files on PGlite using about 1.2 cores. Each writes its own
# output, printed whole once both are done; scripts/test-summary.ts adds their reports up.
rm -f .cache/vitest-*.json
run_vitest() {
  local name=$1
  shift
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json=".cache/vitest-$name.json" >".cache/vitest-$name.log" 2>&1
}
run_vitest pglite --project integration &
pglite=$!
run_vitest rest --project unit ${TEST_DATABASE_URL:+--project integration-pg} &
rest=$!
vitest_status=0
wait "$pglite" || vitest_status=$?
wait "$rest" || vitest_status=$?
cat .cache/vitest-pglite.log .cache/vitest-rest.log
[ "$vitest_status" -eq 0 ] || exit "$vitest_status"
phase build
npx remix vite:build >/dev/null
bash scripts/check-client-bundle.sh
phase playwright
PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright.json npx playwright test --reporter=list,json
phase cluster
# Two consoles and two platforms behind HAProxy (tests/cluster), when PostgreSQL, Redis, haproxy and prometheus answer here.
rm -f .cache/playwright-cluster.json
if bash scripts/cluster.sh check; then
  PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright-cluster.json npx playwright test -c playwright.cluster.config.ts --reporter=list,json
else
  echo "cluster scenario skipped: it needs PostgreSQL, Redis, haproxy and prometheus on this machine (docs/operations.md)"
fi
phase summary
npx tsx scripts/test-summary.ts
