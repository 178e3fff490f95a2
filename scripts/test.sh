#!/usr/bin/env bash
# The test command of the README: builds what is needed, then runs every test
# (lit plugin tests, runtime unit tests, end-to-end programs) with ctest.
# Extra arguments go to ctest, e.g. `scripts/test.sh -L lit`. Two tests per
# core by default (JOBS=N to change): most tests fork and wait (crash
# sweeps, servers), and none of their verdicts depends on the machine's speed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" all # (what the tests run; not every benchmark)
status=0
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$((2 * $(nproc)))}" \
  "$@" || status=$?
if [ "$status" -ne 0 ]; then
  # The end of each failed test's output once more, after ctest's summary: a
  # log that keeps only its last lines (CI's report) still says why.
  tmp="$build/Testing/Temporary"
  if [ -f "$tmp/LastTestsFailed.log" ] && [ -f "$tmp/LastTest.log" ]; then
    while IFS=: read -r _ name; do
      awk -v t="$name" '
        { i = index($0, " Testing: ") }
        i && substr($0, i + 10) == t { on = 1; n = 0; failed = 0 }
        on { block[n++] = $0; if ($0 == "Test Failed.") failed = 1 }
        on && index($0, "\"" t "\" end time") == 1 {
          on = 0
          if (failed) {
            print "==== " t ": the end of its output ===="
            for (k = (n > 60 ? n - 60 : 0); k < n; k++) print block[k]
          }
        }' "$tmp/LastTest.log"
    done <"$tmp/LastTestsFailed.log"
  fi
  exit "$status"
fi
