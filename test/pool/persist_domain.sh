#!/bin/bash
# persist_domain.sh KV PTM_POOL_TOOL WORKDIR: the persistence domain
# (docs/pool.md "Persistence domains") as examples/kv (ip_orec_lazy) and
# ptm-pool see it:
#   1. PTM_PERSIST_DOMAIN=file: PTM_STATS names the domain, and every commit
#      of the one thread was synced (syncs of the pool file >= commits > 0),
#      through the persister (the default) and at the library's fences
#      (PTM_FILE_COMMIT=fence), and `ptm-pool check` passes;
#   2. page-cache: the same run syncs nothing;
#   3. no PTM_PERSIST_DOMAIN: `file` on a disk's file system, `page-cache` on
#      tmpfs or ramfs (WORKDIR's file system, read by stat -f), page-cache
#      in /dev/shm; `ptm-pool info` says the same;
#   4. a value that is not a domain, eadr in a build that writes lines
#      back, and a PTM_FILE_COMMIT that is not a way to commit: a clear
#      error, exit status 1, the pool unchanged;
#   5. the slot size of a new pool that names none: 1 MiB in the file domain
#      when its slots take at most an eighth of the pool, 256 KiB otherwise
#      and in page-cache; one that names it (or a zero: refused) as said;
#      by ptm-pool create and by the runtime;
#   6. a new pool in the file domain, reserved (not sparse), has its log
#      slots written (no unwritten extent from the slots' offset to the
#      heap's, filefrag -v), where a reserved file's blocks are otherwise
#      unwritten (the heap's end, the control); skipped where filefrag
#      cannot map WORKDIR's files or its file system reserves no unwritten
#      blocks.
set -u
kv="$1"
tool="$2"
dir=$(mktemp -d "$3/persist-domain-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

# stats DOMAIN|- POOL [ENV...]: kv loads 40 keys with PTM_STATS=1 in DOMAIN
# (- none); sets commits, syncs and the header's domain.
stats() {
  local env=(env -u PTM_PERSIST_DOMAIN -u PTM_FILE_COMMIT PTM_STATS=1 "${@:3}")
  [ "$1" != - ] && env+=(PTM_PERSIST_DOMAIN="$1")
  "${env[@]}" "$kv" -p "$2" -s 32 load 0 40 >/dev/null 2>"$dir/stats" ||
    { err "kv in domain $1: exit status $?"; cat "$dir/stats"; }
  named=$(sed -n 's/.*persistence domain: \([a-z-]*\)).*/\1/p' "$dir/stats")
  commits=$(awk '$2 == "total" { print $3; exit }' "$dir/stats")
  syncs=$(sed -n 's/^ptm: syncs of the pool file: \([0-9]*\)$/\1/p' "$dir/stats")
  echo "domain $1 ${*:3}: named $named, $commits commits, ${syncs:-0} syncs"
}

# 1, 2.
for how in persister fence; do
  stats file "$dir/a-$how.pool" PTM_FILE_COMMIT=$how
  [ "$named" = file ] || err "PTM_PERSIST_DOMAIN=file: PTM_STATS names '$named'"
  [ "${commits:-0}" -gt 0 ] && [ "${syncs:-0}" -ge "$commits" ] ||
    err "file, $how: ${syncs:-0} syncs for $commits commits (each commit needs one)"
  check=$("$tool" check "$dir/a-$how.pool" 2>&1) || err "ptm-pool check: $check"
done
stats page-cache "$dir/b.pool"
[ "$named" = page-cache ] || err "page-cache: PTM_STATS names '$named'"
[ "${syncs:-0}" = 0 ] || err "page-cache: $syncs syncs (none wanted)"

# 3. The choice.
case "$(stat -f -c %T "$dir")" in
tmpfs | ramfs) want=page-cache ;;
*) want=file ;;
esac
stats - "$dir/c.pool"
[ "$named" = "$want" ] || err "$(stat -f -c %T "$dir"): chose '$named', not $want"
info=$(env -u PTM_PERSIST_DOMAIN "$tool" info "$dir/c.pool")
grep -q "^domain: *$want " <<<"$info" || err "ptm-pool info: no 'domain: $want' in: $info"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  shm=$(mktemp -d /dev/shm/ptm-domain-XXXXXX)
  stats - "$shm/d.pool"
  rm -rf "$shm"
  [ "$named" = page-cache ] || err "/dev/shm: chose '$named', not page-cache"
fi

# 4. Refused, the pool unchanged.
before=$("$kv" -p "$dir/c.pool" list | md5sum)
for bad in bogus eadr; do
  out=$(PTM_PERSIST_DOMAIN=$bad "$kv" -p "$dir/c.pool" put x y 2>&1)
  rc=$?
  [ $rc = 1 ] || err "PTM_PERSIST_DOMAIN=$bad: exit status $rc, expected 1"
  grep -q "PTM_PERSIST_DOMAIN" <<<"$out" || err "PTM_PERSIST_DOMAIN=$bad: no message naming it: $out"
done
out=$(PTM_PERSIST_DOMAIN=file PTM_FILE_COMMIT=bogus "$kv" -p "$dir/c.pool" put x y 2>&1)
rc=$?
[ $rc = 1 ] || err "PTM_FILE_COMMIT=bogus: exit status $rc, expected 1"
grep -q "PTM_FILE_COMMIT" <<<"$out" || err "PTM_FILE_COMMIT=bogus: no message naming it: $out"
[ "$("$kv" -p "$dir/c.pool" list | md5sum)" = "$before" ] ||
  err "a refused open changed the pool"
"$tool" check "$dir/c.pool" >/dev/null || err "ptm-pool check after the refusals"

# 5. The default slot size.
slot_size() { "$tool" info "$1" 2>&1 | sed -n 's/^slots: *[0-9]* x \([0-9]*\) bytes.*/\1/p'; }
# created DOMAIN SIZE WANT [ARGS...]: ptm-pool create in DOMAIN gives slots
# of WANT bytes.
created() {
  local p="$dir/s-$1-$2-$#.pool"
  env -u PTM_PERSIST_DOMAIN PTM_PERSIST_DOMAIN="$1" "$tool" create "$p" "$2" \
    --sparse "${@:4}" >/dev/null || err "ptm-pool create $p $2 ${*:4} in $1"
  got=$(slot_size "$p")
  echo "create in $1, $2 ${*:4}: slots of $got bytes"
  [ "$got" = "$3" ] || err "create in $1, $2 ${*:4}: slots of '$got' bytes, not $3"
  rm -f "$p"
}
created file 1G 1048576
created file 64M 1048576 --slots 8
created file 256M 262144
created file 1G 524288 --slot-size 512K
created page-cache 1G 262144
out=$("$tool" create "$dir/zero.pool" 1G --slot-size 0 2>&1) &&
  err "ptm-pool create --slot-size 0 succeeded"
[ -e "$dir/zero.pool" ] && err "ptm-pool create --slot-size 0 left a file"
env -u PTM_PERSIST_DOMAIN PTM_PERSIST_DOMAIN=file PTM_POOL_SPARSE=1 \
  "$kv" -p "$dir/r.pool" -s 1024 put k v >/dev/null 2>&1 ||
  err "kv: cannot create a 1 GiB pool in the file domain"
got=$(slot_size "$dir/r.pool")
echo "runtime, file, 1 GiB: slots of $got bytes"
[ "$got" = 1048576 ] || err "the runtime's 1 GiB pool in the file domain: slots of '$got' bytes"
out=$(PTM_POOL_SLOT_SIZE=0 "$kv" -p "$dir/z.pool" put k v 2>&1) &&
  err "PTM_POOL_SLOT_SIZE=0 was accepted"
grep -q PTM_POOL_SLOT_SIZE <<<"$out" || err "PTM_POOL_SLOT_SIZE=0: no message naming it: $out"

# 6. The log slots written at creation.
# extents POOL: "FIRST LAST FLAGS" per extent, in 4 KiB blocks.
extents() {
  filefrag -v -b4096 "$1" 2>/dev/null |
    sed -n 's/^ *[0-9]*: *\([0-9]*\)\.\. *\([0-9]*\):.*:[^:]*: *\([a-z,_]*\) *$/\1 \2 \3/p'
}
p="$dir/w.pool"
env -u PTM_PERSIST_DOMAIN -u PTM_POOL_SPARSE PTM_PERSIST_DOMAIN=file \
  "$tool" create "$p" 64M --slots 8 >/dev/null || err "ptm-pool create $p"
if [ -z "$(extents "$p")" ]; then
  echo "log slots written: not checked (filefrag maps no extent on $(stat -f -c %T "$dir"))"
else
  info=$("$tool" info "$p")
  slots=$(sed -n 's/^slots: .* at offset \([0-9]*\) .*/\1/p' <<<"$info")
  heap=$(sed -n 's/^heap: .* at offset \([0-9]*\)$/\1/p' <<<"$info")
  lo=$((slots / 4096)) hi=$(((heap - 1) / 4096))
  bad=$(extents "$p" | awk -v lo=$lo -v hi=$hi '$1 <= hi && $2 >= lo && $3 ~ /unwritten/')
  tail_unwritten=$(extents "$p" | awk -v hi=$hi '$2 > hi + 16 && $3 ~ /unwritten/')
  echo "log slots written: blocks $lo..$hi, unwritten there: '${bad}'; unwritten past the heap's start: '${tail_unwritten}'"
  if [ -z "$tail_unwritten" ]; then
    echo "log slots written: not checked ($(stat -f -c %T "$dir") reserves written blocks: nothing is unwritten)"
  else
    [ -z "$bad" ] || err "a new pool's log slots (blocks $lo..$hi) are unwritten: $bad"
  fi
fi
rm -f "$p"

[ $fail = 0 ] && echo "persist-domain: OK"
exit $fail
