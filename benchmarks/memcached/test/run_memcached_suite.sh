#!/usr/bin/env bash
# Runs memcached's own test suite (its t/*.t, with prove) against
# ptm-memcached and reports pass/fail per file (docs/memcached.md, "memcached's
# test suite").
#
#   run_memcached_suite.sh [--server EXE] [--src DIR] [--out DIR]
#                          [--raw] [--timeout S] [--expect FILE] [FILE.t...]
#
# --src DIR    a memcached source tree (default $MEMCACHED_SRC); only its t/
#              is used: nothing is built and nothing in it is written
# --server EXE the server (default $PTM_MEMCACHED, else bin/ptm-memcached
#              of the build this script is run from)
# --raw        EXE is a real memcached: run it as the suite's memcached-debug
#              without translation (the reference column)
# --expect F   the files known to fail or left out (suite_expectations.txt):
#              the exit status is 0 when every other file passes
# --timeout S  bound on each file (default 300 s)
# --out DIR    keep the work directory and the logs there (default: a
#              temporary directory, removed)
#
# Without a suite (no DIR/t/lib/MemcachedTest.pm) or without perl/prove it
# prints why and exits 77, which ctest reports as skipped.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${MEMCACHED_SRC:-}"
server="${PTM_MEMCACHED:-}"
out=""
raw=0
per_file=300
expect=""
files=()
while [ $# -gt 0 ]; do
  case "$1" in
  --src) src="$2"; shift 2 ;;
  --server) server="$2"; shift 2 ;;
  --out) out="$2"; shift 2 ;;
  --raw) raw=1; shift ;;
  --timeout) per_file="$2"; shift 2 ;;
  --expect) expect="$2"; shift 2 ;;
  -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
  -*) echo "run_memcached_suite.sh: unknown option $1" >&2; exit 64 ;;
  *) files+=("$1"); shift ;;
  esac
done

if [ -z "$src" ] || [ ! -f "$src/t/lib/MemcachedTest.pm" ]; then
  echo "SKIP: no memcached source tree (set MEMCACHED_SRC or pass --src to" \
    "a memcached 1.6 checkout with t/lib/MemcachedTest.pm; CI has no" \
    "network to fetch one)"
  exit 77
fi
for tool in perl prove timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool is not installed (Debian: perl)"
    exit 77
  fi
done
if [ -z "$server" ] || [ ! -x "$server" ]; then
  echo "run_memcached_suite.sh: no server executable (--server EXE)" >&2
  exit 64
fi
src="$(cd "$src" && pwd)"
server="$(cd "$(dirname "$server")" && pwd)/$(basename "$server")"

if [ -n "$out" ]; then
  mkdir -p "$out"
  work="$(cd "$out" && pwd)"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
# The suite runs from the directory that holds t/ and memcached-debug
# (MemcachedTest.pm takes the current directory as memcached's build
# directory), and starts the server through ./timedrun.
mkdir -p "$work/logs"
ln -sfn "$src/t" "$work/t"
cat >"$work/memcached-debug" <<EOF
#!/bin/sh
PTM_MEMCACHED='$server' PTM_SUITE_RAW=$raw PTM_SUITE_POOLS='$work/pools' exec python3 '$here/memcached_debug.py' "\$@"
EOF
# timedrun SECONDS CMD...: the bound is this script's per-file timeout
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$work/timedrun"
chmod +x "$work/memcached-debug" "$work/timedrun"

if [ ${#files[@]} -eq 0 ]; then
  for f in "$src"/t/*.t; do files+=("$(basename "$f")"); done
fi

# expectations: "FILE REASON..." lines; # comments
declare -A expected
if [ -n "$expect" ]; then
  while read -r name reason; do
    case "$name" in '' | '#'*) continue ;; esac
    expected[$name]="$reason"
  done <"$expect"
fi

pass=0 fail=0 skip=0 unexpected=0
printf '%-28s %-6s %s\n' FILE RESULT DETAIL
for f in "${files[@]}"; do
  f="$(basename "$f")"
  log="$work/logs/${f%.t}.log"
  (cd "$work" && timeout -k 10 "$per_file" prove -v "t/$f") >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -aq "skipped:" "$log"; then
    result=skip
    detail="$(grep -ao 'skipped:.*' "$log" | head -1)"
    skip=$((skip + 1))
  elif [ $rc -eq 0 ]; then
    result=pass
    detail="$(grep -aEo '^1\.\.[0-9]+' "$log" | head -1 | sed 's/1\.\./tests: /')"
    pass=$((pass + 1))
  else
    result=FAIL
    [ $rc -eq 124 ] && detail="timeout after ${per_file}s" ||
      detail="$(grep -aEo 'Failed [0-9]+/[0-9]+ subtests|Bad plan.*|Parse errors:.*' "$log" | head -1)"
    fail=$((fail + 1))
  fi
  if [ -n "${expected[$f]+x}" ]; then
    detail="$detail (expected: ${expected[$f]})"
  elif [ "$result" = FAIL ]; then
    unexpected=$((unexpected + 1))
  fi
  printf '%-28s %-6s %s\n' "$f" "$result" "$detail"
done
total=${#files[@]}
echo "passed $pass of $total files ($skip skipped by the suite, $fail failed;" \
  "$unexpected failed unexpectedly); logs: $work/logs"
[ -n "$out" ] || echo "(pass --out DIR to keep the logs)"
[ $unexpected -eq 0 ]
