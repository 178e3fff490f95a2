#!/usr/bin/env bash
# The main job of the README: builds what it needs (the plugin, ptm-config,
# ptm-pool, library LIB and ptm-memcached; scripts/test.sh builds the rest),
# then
#  1. runs the example program (examples/bank.c, compiled with the plugin,
#     linked with LIB) end to end on a persistent pool: a first run creates
#     the pool and its bank, a second run (2 threads) reopens it, recovers it
#     and continues, then ptm-pool checks it;
#  2. runs the persistent memcached (bin/ptm-memcached) on a pool: stores
#     items over the memcached protocol, SIGKILLs the server, restarts it on
#     the same pool and reads every item back (benchmarks/memcached/demo.py).
# Each step prints how long it took.
#   scripts/run.sh [LIB]    LIB defaults to ip_orec_lazy; see build/bin/ptm-config --list
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
lib="${1:-ip_orec_lazy}"

start=$(date +%s.%N)
step_start=$start
# step NAME: how long the step that ends here took, and the job so far.
step() {
  local now
  now=$(date +%s.%N)
  awk -v what="$1" -v now="$now" -v a="$step_start" -v b="$start" \
    'BEGIN { printf "run: %s took %.1f s (%.1f s in all)\n", what, now - a, now - b }'
  step_start=$now
}

# Dependencies (what is missing of Debian's packages), the configuration,
# then only what the job runs.
"$root/scripts/install-deps.sh" >/dev/null
step "the dependencies"
PTM_SKIP_DEPS=1 "$root/scripts/build.sh" ptm_plugin ptm-pool
config="$build/bin/ptm-config"
if ! "$config" --list | grep -qx "$lib"; then
  echo "run: unknown library '$lib'; known: $("$config" --list | tr '\n' ' ')" >&2
  exit 2
fi
PTM_SKIP_DEPS=1 "$root/scripts/build.sh" "ptm_${lib}_bc" "ptm_$lib"
step "building the plugin, ptm-pool and library $lib"

# Build the example the way a user would, with ptm-config, against LIB.
out="$build/examples/bank.$lib"
mkdir -p "$build/examples"
echo "run: \$(ptm-config --cc) \$(ptm-config --cflags) -O2 -flto examples/bank.c \$(ptm-config --ldflags $lib) -o $out"
"$("$config" --cc)" $("$config" --cflags) -O2 -flto -pthread "$root/examples/bank.c" \
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
step "the bank example"

PTM_SKIP_DEPS=1 "$root/scripts/build.sh" ptm-memcached
step "building ptm-memcached"
echo "run: benchmarks/memcached/demo.py --build $build"
python3 "$root/benchmarks/memcached/demo.py" --build "$build"
step "the memcached demo"
