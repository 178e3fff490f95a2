#!/usr/bin/env bash
# The main job of the README: builds everything, then runs the example program
# (examples/bank.c, compiled with the plugin, linked with LIB) end to end.
#   scripts/run.sh [LIB]        LIB defaults to cgl; see build/bin/ptm-config --list
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
lib="${1:-cgl}"

"$root/scripts/build.sh"
if ! "$build/bin/ptm-config" --list | grep -qx "$lib"; then
  echo "run: unknown library '$lib'; known: $("$build/bin/ptm-config" --list | tr '\n' ' ')" >&2
  exit 2
fi

# Build the example the way a user would, with ptm-config, against LIB.
out="$build/examples/bank.$lib"
mkdir -p "$build/examples"
echo "run: clang-19 \$(ptm-config --cflags) -O2 -flto examples/bank.c \$(ptm-config --ldflags $lib) -o $out"
clang-19 $("$build/bin/ptm-config" --cflags) -O2 -flto -pthread "$root/examples/bank.c" \
  $("$build/bin/ptm-config" --ldflags "$lib") -o "$out"

for threads in 1 2; do
  echo "run: $out -t $threads -n 200000"
  "$out" -t "$threads" -n 200000
done
