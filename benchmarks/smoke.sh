#!/bin/sh
# smoke.sh [--min-secs S] PROGRAM ARGS...: runs a benchmark, passes if it
# exits 0 and prints exactly one well-formed RESULT line (the benchmark
# contract of DESIGN.md). With --min-secs (the time-bounded mode, -d S), the
# RESULT line's secs= must be at least S: the run lasted its duration. The
# number of operations done in that time is never checked (it depends on the
# machine); the program's own validation holds for any number.
min_secs=
if [ "$1" = "--min-secs" ]; then
  min_secs=$2
  shift 2
fi
out=$("$@") || { status=$?; echo "$out"; echo "smoke: exit status $status" >&2; exit 1; }
echo "$out"
n=$(echo "$out" | grep -cE '^RESULT bench=[a-z0-9_]+ lib=[a-z0-9_]+ threads=[0-9]+ ops_per_s=[0-9]+ commits=[0-9]+ aborts=[0-9]+ clwb_per_tx=([0-9.]+|na) sfence_per_tx=([0-9.]+|na)( |$)')
[ "$n" = 1 ] || { echo "smoke: expected one RESULT line, found $n" >&2; exit 1; }
if [ -n "$min_secs" ]; then
  secs=$(echo "$out" | sed -n 's/^RESULT .* secs=\([0-9.]*\).*$/\1/p')
  # secs is printed with 3 decimals: allow its rounding
  awk -v s="$secs" -v m="$min_secs" 'BEGIN { exit !(s != "" && s + 0.0005 >= m) }' ||
    { echo "smoke: secs=$secs, expected at least $min_secs (-d)" >&2; exit 1; }
fi
exit 0
