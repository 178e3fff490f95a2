#!/usr/bin/env bash
# The main job of the README: builds everything, then
#  1. runs the example program (examples/bank.c, compiled with the plugin,
#     linked with LIB) end to end on a persistent pool: a first run creates
#     the pool and its bank, a second run (2 threads) reopens it, recovers it
#     and continues, then ptm-pool checks it;
#  2. runs the persistent memcached (bin/ptm-memcached) on a pool: stores
#     items over the memcached protocol, SIGKILLs the server, restarts it on
#     the same pool and reads every item back (benchmarks/memcached/demo.py).
#   scripts/run.sh [LIB]    LIB defaults to ip_orec_lazy; see build/bin/ptm-config --list
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
lib="${1:-ip_orec_lazy}"

"$root/scripts/build.sh"
config="$build/bin/ptm-config"
if ! "$config" --list | grep -qx "$lib"; then
  echo "run: unknown library '$lib'; known: $("$config" --list | tr '\n' ' ')" >&2
  exit 2
fi

# Build the example the way a user would, with ptm-config, against LIB.
out="$build/examples/bank.$lib"
mkdir -p "$build/examples"
echo "run: clang-19 \$(ptm-config --cflags) -O2 -flto examples/bank.c \$(ptm-config --ldflags $lib) -o $out"
clang-19 $("$config" --cflags) -O2 -flto -pthread "$root/examples/bank.c" \
  $("$config" --ldflags "$lib") -o "$out"

pool="$build/examples/bank.$lib.pool"
rm -f "$pool"
case "$lib" in
  p_* | gp_* | ip_*) persistent=1 ;;
  *) persistent=0 ;;
esac
# The pool is an ordinary file: ptm syncs each commit to the disk (the
# `file` persistence domain, docs/pool.md), a few hundred per second on a
# disk. The first run shows it; the next two keep the pool in the page cache
# (PTM_PERSIST_DOMAIN=page-cache: durable against a crash of the program,
# not a power cut) to show the library's own speed.
echo "run: PTM_POOL=$pool $out -t 1 -n 1000"
PTM_POOL="$pool" PTM_POOL_SIZE=256M "$out" -t 1 -n 1000
for threads in 1 2; do
  echo "run: PTM_PERSIST_DOMAIN=page-cache PTM_POOL=$pool $out -t $threads -n 200000"
  PTM_PERSIST_DOMAIN=page-cache PTM_POOL="$pool" PTM_POOL_SIZE=256M \
    "$out" -t "$threads" -n 200000
done
if [ "$persistent" = 1 ]; then
  echo "run: ptm-pool check $pool"
  "$build/bin/ptm-pool" check "$pool"
  "$build/bin/ptm-pool" info "$pool" | head -20
fi
rm -f "$pool"

echo "run: benchmarks/memcached/demo.py --build $build"
python3 "$root/benchmarks/memcached/demo.py" --build "$build"
