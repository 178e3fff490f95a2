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
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$((2 * $(nproc)))}" "$@"
