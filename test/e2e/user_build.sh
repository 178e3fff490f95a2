#!/bin/sh
# Builds and runs programs the way a user does, with bin/ptm-config.
# usage: user_build.sh PTM_CONFIG CC SRCDIR WORKDIR MODE
#   MODE config     ptm-config --list and its errors for bad arguments, --cc
#        lto        -O2 -flto, --ldflags cgl          (user_prog.c)
#        shared     -O2, --ldflags cgl --shared       (user_prog.c)
#        warn       the compile-time warning for printf in a transaction
#        debug-lto  -g -O2 -flto, --ldflags cgl       (user_prog.c, locals.c)
set -u
config=$1 cc=$2 src=$3 work=$4 mode=$5
mkdir -p "$work" || exit 1
cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }

run_prog() { # $1: executable
  out=$("./$1") || fail "$1 exited with $?: $out"
  echo "$out"
  echo "$out" | grep -q "user_prog: OK \[lib cgl\]" || fail "$1: unexpected output"
}

case $mode in
config)
  "$config" --list > list.txt || fail "ptm-config --list exited with $?"
  grep -qx cgl list.txt || fail "ptm-config --list does not print cgl: $(cat list.txt)"
  for args in "--ldflags nosuchlib" "" "--ldflags" "--nosuchoption" \
              "--ldflags cgl --bogus"; do
    # shellcheck disable=SC2086
    if "$config" $args > out.txt 2> err.txt; then
      fail "ptm-config $args exited 0"
    fi
    [ -s err.txt ] || fail "ptm-config $args printed no message on stderr"
    echo "ptm-config $args: $(head -1 err.txt)"
  done
  "$config" --ldflags nosuchlib 2>&1 | grep -q nosuchlib ||
    fail "the error for an unknown library does not name it"
  # --cc names the clang of the plugin's LLVM major (the build's compiler).
  major=$("$config" --llvm-version) || fail "ptm-config --llvm-version exited with $?"
  for opt in --cc --cxx; do
    compiler=$("$config" $opt) || fail "ptm-config $opt exited with $?"
    "$compiler" --version | grep -q "clang version $major\." ||
      fail "ptm-config $opt: '$compiler' is not clang $major"
  done
  [ "$("$config" --cc)" = "$cc" ] || fail "ptm-config --cc is not the build's compiler $cc"
  echo "ptm-config --cc: $("$config" --cc) (LLVM $major)"
  ;;
lto)
  # shellcheck disable=SC2046
  $cc $("$config" --cflags) -O2 -flto "$src/user_prog.c" \
    $("$config" --ldflags cgl) -o prog_lto || fail "LTO build failed"
  run_prog prog_lto
  ;;
shared)
  # shellcheck disable=SC2046
  $cc $("$config" --cflags) -O2 "$src/user_prog.c" \
    $("$config" --ldflags cgl --shared) -o prog_shared || fail "shared build failed"
  run_prog prog_shared
  ;;
debug-lto)
  # shellcheck disable=SC2046
  $cc $("$config" --cflags) -g -O2 -flto "$src/user_prog.c" \
    $("$config" --ldflags cgl) -o prog_debug_lto || fail "-g LTO build failed"
  run_prog prog_debug_lto
  # shellcheck disable=SC2046
  $cc $("$config" --cflags) -I"$src" -g -O2 -flto "$src/locals.c" \
    $("$config" --ldflags cgl) -o locals_debug_lto || fail "-g LTO build of locals.c failed"
  ./locals_debug_lto || fail "locals_debug_lto exited with $?"
  ;;
warn)
  # shellcheck disable=SC2046
  $cc $("$config" --cflags) -g -O0 -c "$src/user_warn.c" -o warn.o 2> warn.txt ||
    fail "compile failed: $(cat warn.txt)"
  cat warn.txt
  grep -q "user_warn.c:7:[0-9]*: warning: ptm:.*printf" warn.txt ||
    fail "no ptm warning with file:line for printf in a transaction"
  ;;
*)
  fail "unknown mode $mode" ;;
esac
echo "user_build $mode: OK"
