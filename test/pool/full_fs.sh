#!/bin/bash
# full_fs.sh DEPLOY_TEST PTM_POOL_TOOL: pools on a file system that fills
# (docs/pool.md "Deploying"). Mounts a 32 MiB tmpfs (root only: exit 77,
# ctest's skip, saying why, elsewhere) and checks, with no run ending by a
# signal:
#   1. a 256 MiB pool there: ptm_open fails at creation with the file
#      system's free space in the message, and leaves no file; so does
#      `ptm-pool create`, and PTM_POOL (the runtime's default pool);
#   2. a 24 MiB pool is created (its space reserved: the file's blocks cover
#      it) and filled with 1 MiB blocks until ptm_malloc gives NULL: exit 0,
#      `ptm-pool check` passes, a second fill adds nothing;
#   3. `ptm-pool create --sparse` makes a 256 MiB sparse pool there; opening
#      it warns once that its space cannot be reserved (PTM_POOL_SPARSE=1:
#      no warning); it is never filled (that would be the SIGBUS).
set -u
test_bin="$1"
tool="$2"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: mounting a small tmpfs needs root"
  exit 77
fi
mnt=$(mktemp -d "${TMPDIR:-/tmp}/ptm-fullfs-XXXXXX")
if ! mount -t tmpfs -o size=32m ptm-fullfs "$mnt"; then
  rmdir "$mnt"
  echo "SKIP: cannot mount a tmpfs"
  exit 77
fi
trap 'umount "$mnt"; rmdir "$mnt"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

# run NAME WANT_STATUS CMD...: runs CMD, stderr to $mnt.err (outside the fs)
out="$mnt.out"
run() {
  local name="$1" want="$2"
  shift 2
  "$@" >"$out" 2>&1
  local rc=$?
  if [ $rc -ge 128 ]; then
    err "$name: killed by signal $((rc - 128))"
    cat "$out"
  elif [ "$rc" != "$want" ]; then
    err "$name: exit status $rc, expected $want"
    cat "$out"
  fi
}
expect() { # NAME TEXT: the last run's output has TEXT
  grep -qF -- "$2" "$out" || { err "$1: no '$2' in:"; cat "$out"; }
}

# 1. No room: refused at creation, nothing left behind.
run "open 256M" 1 "$test_bin" fill "$mnt/big.pool" 256M
expect "open 256M" "cannot create: the file system has no room for a pool of 268435456 bytes"
expect "open 256M" "bytes are free"
[ -e "$mnt/big.pool" ] && err "open 256M: the file was left behind"
run "ptm-pool create 256M" 1 "$tool" create "$mnt/big.pool" 256M
expect "ptm-pool create 256M" "no room for a pool"
[ -e "$mnt/big.pool" ] && err "ptm-pool create 256M: the file was left behind"
PTM_POOL="$mnt/big.pool" PTM_POOL_SIZE=256M run "PTM_POOL 256M" 70 \
  "$test_bin" touch
expect "PTM_POOL 256M" "no room for a pool"
[ -e "$mnt/big.pool" ] && err "PTM_POOL 256M: the file was left behind"

# 2. A pool that fits: filled to NULL, checked, filled again.
run "fill 24M" 0 "$test_bin" fill "$mnt/small.pool" 24M
expect "fill 24M" "then it was full"
blocks=$(stat -c %b "$mnt/small.pool")
size=$(stat -c %s "$mnt/small.pool")
[ $((blocks * 512)) -ge "$size" ] || err "24M pool: sparse ($blocks blocks)"
first=$(grep -o 'added, [0-9]* in the pool' "$out")
run "check 24M" 0 "$tool" check "$mnt/small.pool"
run "fill 24M again" 0 "$test_bin" fill "$mnt/small.pool" 24M
expect "fill 24M again" "fill: 0 blocks of 1 MiB added"
expect "fill 24M again" "$first"

# 3. Sparse on request; reopening it warns that its space is not there.
rm -f "$mnt/small.pool"
run "create --sparse" 0 "$tool" create "$mnt/sparse.pool" 256M --sparse
run "info sparse" 0 "$tool" info "$mnt/sparse.pool"
blocks=$(stat -c %b "$mnt/sparse.pool")
[ $((blocks * 512)) -lt $((32 << 20)) ] || err "--sparse: $blocks blocks"
run "open sparse" 0 "$test_bin" touch "$mnt/sparse.pool"
expect "open sparse" "the pool file is sparse and its space cannot be reserved"
PTM_POOL_SPARSE=1 run "open sparse, PTM_POOL_SPARSE=1" 0 \
  "$test_bin" touch "$mnt/sparse.pool"
grep -q "sparse" "$out" && { err "PTM_POOL_SPARSE=1: warned"; cat "$out"; }
PTM_POOL_SPARSE=yes run "PTM_POOL_SPARSE=yes" 70 \
  "$test_bin" fill "$mnt/other.pool" 1M
expect "PTM_POOL_SPARSE=yes" "PTM_POOL_SPARSE='yes' is not 0 or 1"

[ $fail = 0 ] && echo "full file system: ok"
exit $fail
