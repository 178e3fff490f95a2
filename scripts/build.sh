#!/usr/bin/env bash
# Configures (once) and builds ptm in BUILD_DIR (default: build/).
#   scripts/build.sh [TARGET...]   default: `all` and `benchmarks` (every
#                                  program of bench/; `all` has only those a
#                                  test runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"
# Dependencies first (quick when present; PTM_SKIP_DEPS=1 skips the check).
if [ "${PTM_SKIP_DEPS:-0}" != 1 ]; then
  "$root/scripts/install-deps.sh" >/dev/null
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_ARGS:-}
fi
if [ $# -eq 0 ]; then
  set -- all benchmarks
fi
cmake --build "$build" -j "$jobs" --target "$@"
