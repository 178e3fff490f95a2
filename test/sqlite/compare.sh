#!/bin/sh
# compare.sh PROG REF [ARGS...]: runs the SQLite workload built with the
# plugin (PROG) and its native build (REF) with the same arguments; passes
# when both exit 0 and print the same thing (every query's rows and
# checksums). Prints both run times and the first differing lines.
prog=$1 ref=$2
shift 2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
t0=$(now)
"$ref" "$@" >"$dir/ref.out" 2>"$dir/ref.err"
rc_ref=$?
t1=$(now)
"$prog" "$@" >"$dir/prog.out" 2>"$dir/prog.err"
rc_prog=$?
t2=$(now)
cat "$dir/prog.err"
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
echo "native: exit $rc_ref, $(secs "$t0" "$t1") s; $(basename "$prog"): exit $rc_prog, $(secs "$t1" "$t2") s"
if [ "$rc_ref" -ne 0 ] || [ "$rc_prog" -ne 0 ]; then
  echo "FAILED: a run did not exit 0"
  cat "$dir/ref.err"
  exit 1
fi
if ! cmp -s "$dir/ref.out" "$dir/prog.out"; then
  echo "FAILED: query results differ from the native build:"
  diff "$dir/ref.out" "$dir/prog.out" | head -20
  exit 1
fi
echo "same results as native: $(grep -c '^-- rows' "$dir/ref.out") queries, $(tail -1 "$dir/ref.out")"
