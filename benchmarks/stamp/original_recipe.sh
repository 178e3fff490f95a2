#!/usr/bin/env bash
# Runs docs/stamp.md's recipe on the original STAMP 0.9.x sources: copies the
# tree, puts our tm.h in its lib/, points its makefiles at clang and a ptm
# library (CC, LD, CFLAGS from ptm-config --cflags, LIBS from --ldflags
# instead of -ltl2), builds each application's Makefile.stm unchanged
# otherwise, and runs it on its simulator input (the arguments of STAMP's
# README). Reports one line per application and exits non-zero if one did
# not build or run.
#
# usage: original_recipe.sh STAMP_DIR BUILD_DIR [LIB] [APPS...]
#   STAMP_DIR  the distribution (its lib/, common/ and application folders)
#   BUILD_DIR  a ptm build (bin/ptm-config)
#   LIB        a library name of `ptm-config --list` (default ip_orec_lazy)
#   APPS       default: all eight
set -u
if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
stamp=$1
build=$(cd "$2" && pwd)
lib=${3:-ip_orec_lazy}
shift $(($# < 3 ? $# : 3))
apps=${*:-bayes genome intruder kmeans labyrinth ssca2 vacation yada}
here=$(cd "$(dirname "$0")" && pwd)
config=$build/bin/ptm-config
for f in "$stamp/lib/tm.h" "$stamp/common/Makefile.stm" "$config"; do
  if [ ! -e "$f" ]; then
    echo "original_recipe: $f is missing" >&2
    exit 2
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$stamp/." "$work/"
# The distribution ships its inputs gzipped (its README: gunzip them first).
find "$work" -name '*.gz' -exec gunzip -f {} + 2>/dev/null
# Step 1: our tm.h replaces the distribution's.
cp "$here/tm.h" "$work/lib/tm.h"
# Step 2: compiler, linker and flags (docs/stamp.md: LD must be clang, the
# distribution's g++ cannot link LTO bitcode with -fuse-ld=lld).
sed -i -e 's/^CC *:= *gcc/CC       := clang-19/' \
  -e 's/^LD *:= *g++/LD       := clang-19/' \
  -e 's/^CFLAGS *+= *-O3/CFLAGS   += -O2 $(PTM_CFLAGS) -flto/' \
  "$work/common/Defines.common.mk"
sed -i -e 's/^LIBS *+= *-ltl2/LIBS     += $(PTM_LDFLAGS)/' \
  "$work/common/Makefile.stm"
cflags="$("$config" --cflags)"
ldflags="$("$config" --ldflags "$lib")"

# Step 3: the simulator inputs, as STAMP's README runs them.
args_for() {
  case $1 in
  bayes) echo "-v32 -r1024 -n2 -p20 -i2 -e2 -t1" ;;
  genome) echo "-g256 -s16 -n16384 -t1" ;;
  intruder) echo "-a10 -l4 -n2048 -s1 -t1" ;;
  kmeans) echo "-m40 -n40 -t0.05 -i inputs/random-n2048-d16-c16.txt -p1" ;;
  labyrinth) echo "-i inputs/random-x32-y32-z3-n96.txt -t1" ;;
  ssca2) echo "-s13 -i1.0 -u1.0 -l3 -p3 -t1" ;;
  vacation) echo "-n2 -q90 -u98 -r16384 -t4096 -c1" ;;
  yada) echo "-a20 -i inputs/633.2 -t1" ;;
  esac
}

failed=0
for app in $apps; do
  dir=$work/$app
  # The applications share lib/'s objects but not their flags (bayes builds
  # lib/list.c with -DLIST_NO_DUPLICATES, labyrinth without): clean first.
  make -C "$dir" -f Makefile.stm clean >/dev/null 2>&1
  if ! make -C "$dir" -f Makefile.stm PTM_CFLAGS="$cflags" \
    PTM_LDFLAGS="$ldflags" >"$work/$app.build.log" 2>&1; then
    echo "$app: BUILD FAILED ($lib)"
    tail -5 "$work/$app.build.log"
    failed=1
    continue
  fi
  prog=$(make -s -C "$dir" -f Makefile.stm -p 2>/dev/null |
    sed -n 's/^PROG := //p' | head -1)
  # shellcheck disable=SC2046
  # bayes's learner writes more words in one transaction than a default
  # thread slot logs (docs/stamp.md): larger slots, as the recipe says.
  slot=
  [ "$app" = bayes ] && slot=8M
  if (cd "$dir" && PTM_POOL_SLOT_SIZE=${slot:-${PTM_POOL_SLOT_SIZE:-}} \
    timeout 300 "./$prog" $(args_for "$app") \
    >"$work/$app.run.log" 2>&1); then
    echo "$app: OK ($lib, $(grep -c . "$work/$app.run.log") lines of output)"
  else
    echo "$app: RUN FAILED ($lib)"
    tail -5 "$work/$app.run.log"
    failed=1
  fi
done
exit $failed
