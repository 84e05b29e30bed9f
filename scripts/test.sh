#!/usr/bin/env bash
# npm test: typecheck, unit + machine + platform integration tests, then end-to-end in Chromium.
#
# On 2 cores no runner here fills both alone, so the work runs as side-by-side jobs in stages
# (issue 35, docs/benchmarks.md "The test suite"):
#   1. typecheck and the build, side by side, alone: beside Vitest both took 51 s against 18 s and
#      Vitest 206–211 s against 177 s, a loss;
#   2. Vitest on PGlite | unit, then Vitest on PostgreSQL | the cluster scenario (it needs the build):
#      half its time it waits on restarts and drains, which the Vitest passes fill; beside
#      Playwright's two workers, busier still, its drain once dropped a request (since mended);
#   3. Playwright (two workers, a platform and console each).
# Each job writes its own log, printed whole when its stage ends; each job's wall time and each
# stage's are printed at the end whatever the outcome, so that a slower suite shows.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh
mkdir -p .cache
rm -f .cache/vitest-*.json .cache/playwright.json .cache/playwright-cluster.json

timings=()
trap 'status=$?; echo "== wall time"; printf "%s\n" "${timings[@]}"; printf "%-28s %5d s\n" total "$SECONDS"; exit $status' EXIT

# job NAME COMMAND…: runs COMMAND in the background, its output in .cache/NAME.log, its wall time noted.
job_names=()
job_pids=()
stage_started=$SECONDS
job() {
  local name=$1
  shift
  [ ${#job_pids[@]} -eq 0 ] && stage_started=$SECONDS
  (
    started=$SECONDS
    status=0
    "$@" >".cache/$name.log" 2>&1 || status=$?
    echo "$((SECONDS - started))" >".cache/$name.seconds"
    exit "$status"
  ) &
  job_names+=("$name")
  job_pids+=("$!")
}

# stage NAME: waits for every job started since the last stage, prints their logs in order, notes
# the stage's wall time from its first job's start, and fails once all have ended if any failed.
stage() {
  local name=$1 status=0 i
  for i in "${!job_pids[@]}"; do
    wait "${job_pids[$i]}" || status=$?
  done
  for i in "${!job_names[@]}"; do
    echo "== ${job_names[$i]}"
    cat ".cache/${job_names[$i]}.log"
    timings+=("$(printf '  %-26s %5d s' "${job_names[$i]}" "$(cat ".cache/${job_names[$i]}.seconds" 2>/dev/null || echo 0)")")
  done
  timings+=("$(printf '%-28s %5d s' "$name" "$((SECONDS - stage_started))")")
  job_names=()
  job_pids=()
  return "$status"
}

# Vitest's reports are added up by scripts/test-summary.ts.
vitest() {
  local name=$1
  shift
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json=".cache/vitest-$name.json"
}
# The typecheck beside the build: tsc keeps about one core busy for 15 s and the build another for 5 s,
# 20 s one after the other and 16 s together. Statuses are kept by hand: a function run as a job's
# `||` operand ignores `set -e` (bash's own rule).
build() {
  local status=0 typecheck
  npx tsc --noEmit &
  typecheck=$!
  { npx remix vite:build >/dev/null && bash scripts/check-client-bundle.sh; } || status=$?
  wait "$typecheck" || status=$?
  return "$status"
}
# Two consoles and two platforms behind HAProxy (tests/cluster), when PostgreSQL, Redis, haproxy and prometheus answer here.
cluster() {
  if bash scripts/cluster.sh check; then
    PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright-cluster.json npx playwright test -c playwright.cluster.config.ts --reporter=list,json
  else
    echo "cluster scenario skipped: it needs PostgreSQL, Redis, haproxy and prometheus on this machine (docs/operations.md)"
  fi
}

job typecheck-build build
stage "typecheck, build"

job vitest-pglite vitest pglite --project integration
job vitest-rest vitest rest --project unit --project unit-isolated ${TEST_DATABASE_URL:+--project integration-pg}
job cluster cluster
stage "vitest, cluster"

job playwright env PLAYWRIGHT_JSON_OUTPUT_NAME=.cache/playwright.json npx playwright test --reporter=list,json
stage "end to end"

echo "== summary"
npx tsx scripts/test-summary.ts
