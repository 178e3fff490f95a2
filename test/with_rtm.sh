#!/bin/sh
# with_rtm.sh PROGRAM [ARGS...]: runs PROGRAM with PTM_HTM=rtm (crafty's
# hardware transactions on Intel RTM), or exits 77 (ctest: skipped) saying
# why when this CPU has no RTM, or has it disabled (every transaction
# aborts: the runtime refuses PTM_HTM=rtm then).
if ! grep -qw rtm /proc/cpuinfo; then
  echo "SKIP: this CPU has no rtm flag in /proc/cpuinfo"
  exit 77
fi
out=$(PTM_HTM=rtm "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "no usable RTM"; then
  echo "SKIP: RTM is listed but disabled on this CPU"
  exit 77
fi
exit $rc
