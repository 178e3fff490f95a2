#!/bin/bash
# clean_close.sh KV BANK PTM_POOL_TOOL WORKDIR: a pool closed cleanly has
# nothing to replay and says so; one whose program was killed says it was
# not closed cleanly (docs/pool.md "Closing a pool").
#   1. Closed cleanly, `ptm-pool check` says "clean" and `info` lists no
#      pending record, after: kv put (ptm_close), kv load (ptm_open and an
#      exit without ptm_close), the bank example (PTM_POOL, an exit without
#      ptm_close: p_cgl_lazy), each in the `file` and `page-cache` domains,
#      and kv load under PTM_DURABILITY=buffered.
#   2. kv load killed with SIGKILL once it has acknowledged 200 puts: check
#      and info say "not closed cleanly" with records to recover (in the
#      page-cache domain, where ip_orec_lazy's log ring keeps its last
#      records committed); every acknowledged put is there after the next
#      open, and after that clean close the pool is clean again.
set -u
kv="$1"
bank="$2"
tool="$3"
dir=$(mktemp -d "$4/clean-close-XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

# clean WHAT POOL: check and info say POOL was closed cleanly.
clean() {
  local out
  out=$("$tool" check "$2" 2>&1) || err "$1: check failed: $out"
  case "$out" in
  *"ok, clean (closed cleanly: nothing to recover)"*) ;;
  *) err "$1: check says: $out" ;;
  esac
  out=$("$tool" info "$2" 2>&1) || err "$1: info failed"
  grep -q '^state: *clean' <<<"$out" || err "$1: info: $(grep state <<<"$out")"
  grep -q '^pending: *0 record(s)' <<<"$out" ||
    err "$1: info: $(grep pending <<<"$out")"
  echo "$1: clean"
}

# 1.
for domain in file page-cache; do
  export PTM_PERSIST_DOMAIN=$domain
  p="$dir/kv-$domain.pool"
  "$kv" -p "$p" -s 64 put a b || err "kv put ($domain)"
  clean "kv put, ptm_close, $domain" "$p"
  "$kv" -p "$p" load 0 100 >/dev/null || err "kv load ($domain)"
  clean "kv load, exit without ptm_close, $domain" "$p"
  p="$dir/bank-$domain.pool"
  PTM_POOL="$p" PTM_POOL_SIZE=64M "$bank" -t 2 -n 2000 >/dev/null ||
    err "bank ($domain)"
  clean "bank, PTM_POOL, exit without ptm_close, $domain" "$p"
done
export PTM_PERSIST_DOMAIN=page-cache
p="$dir/kv-buffered.pool"
PTM_DURABILITY=buffered "$kv" -p "$p" -s 64 load 0 100 >/dev/null ||
  err "kv load (buffered)"
clean "kv load, buffered, exit without ptm_close" "$p"

# 2.
p="$dir/killed.pool"
"$kv" -p "$p" -s 64 load 0 1000000000 >"$dir/acks" &
pid=$!
while ! grep -q '^ack put 199$' "$dir/acks"; do
  kill -0 $pid 2>/dev/null || { err "kv load ended early"; break; }
  sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
pid=
out=$("$tool" check "$p" 2>&1) || err "check after SIGKILL failed: $out"
echo "after SIGKILL: $out"
records=$(sed -n 's/.*closed cleanly.*; \([0-9]*\) record(s) with logs.*/\1/p' <<<"$out")
case "$out" in
*"ok, not closed cleanly"*) ;;
*) err "check after SIGKILL: $out" ;;
esac
[ "${records:-0}" -ge 1 ] || err "after SIGKILL: no record to recover"
"$tool" info "$p" | grep -q '^state: *not closed cleanly' ||
  err "info after SIGKILL: $("$tool" info "$p" | grep state)"
last=$(sed -n 's/^ack put \([0-9]*\)$/\1/p' "$dir/acks" | tail -1)
for k in 0 150 "$last"; do # (0: deleted by the load; 150 and the last kept)
  if [ "$k" = 0 ]; then
    "$kv" -p "$p" get key0 >/dev/null 2>&1 && err "key0 back after recovery"
  else
    "$kv" -p "$p" get "key$k" >/dev/null ||
      err "acknowledged key$k lost (last acknowledged put: $last)"
  fi
done
clean "reopened after SIGKILL, ptm_close" "$p"

[ $fail = 0 ] && echo "clean-close: OK"
exit $fail
