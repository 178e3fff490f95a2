#!/bin/sh
# same_work.sh PATTERN PROGRAM_A PROGRAM_B ARGS...: runs two versions of a
# benchmark (e.g. ptm's and its PMDK peer) with the same ARGS and passes if
# both succeed and print the same summary line (the one line matching the
# extended regular expression PATTERN: what the run did, drawn from the
# seed, not its speed). So a peer does the program's work, not less.
pattern=$1
a=$2
b=$3
shift 3
summary() {
  out=$("$@") || { echo "$out"; echo "same_work: $1 failed" >&2; exit 1; }
  line=$(echo "$out" | grep -E "$pattern")
  [ "$(echo "$line" | grep -c .)" = 1 ] ||
    { echo "$out"; echo "same_work: $1: no single line matches '$pattern'" >&2; exit 1; }
  echo "$line"
}
sa=$(summary "$a" "$@") || exit 1
sb=$(summary "$b" "$@") || exit 1
echo "$a: $sa"
echo "$b: $sb"
[ "$sa" = "$sb" ] || { echo "same_work: the two runs did different work" >&2; exit 1; }
