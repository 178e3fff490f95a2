#!/bin/sh
# with_flush.sh INSN PROGRAM [ARGS...]: runs PROGRAM with PTM_FLUSH=INSN
# (clwb, clflushopt or clflush), or exits 77 (ctest: skipped) saying why when
# this CPU lacks INSN.
insn="$1"
shift
if ! grep -qw "$insn" /proc/cpuinfo; then
  echo "SKIP: this CPU has no $insn"
  exit 77
fi
PTM_FLUSH="$insn" exec "$@"
