#!/bin/sh
# smoke.sh PROGRAM ARGS...: runs a benchmark, passes if it exits 0 and prints
# exactly one well-formed RESULT line (the benchmark contract of DESIGN.md).
out=$("$@") || { status=$?; echo "$out"; echo "smoke: exit status $status" >&2; exit 1; }
echo "$out"
n=$(echo "$out" | grep -cE '^RESULT bench=[a-z0-9_]+ lib=[a-z_]+ threads=[0-9]+ ops_per_s=[0-9]+ commits=[0-9]+ aborts=[0-9]+ clwb_per_tx=([0-9.]+|na) sfence_per_tx=([0-9.]+|na)( |$)')
[ "$n" = 1 ] || { echo "smoke: expected one RESULT line, found $n" >&2; exit 1; }
