#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium headless shell, the benchmarks its full browser (no
# browser download; tests/fixtures/chromium.ts). Install whichever is missing.
set -euo pipefail
test_browser="${TEST_CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$test_browser" ] && [ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's chromium and chromium-headless-shell packages…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  exit 0
fi
echo "Chromium is missing at $test_browser or $browser. Install it with: sudo apt-get install -y chromium chromium-headless-shell" >&2
echo "(or point TEST_CHROMIUM_PATH and CHROMIUM_PATH at Chromium binaries)" >&2
exit 1
