// The plugin loaded into the clang or opt of another LLVM major refuses to
// run: one message naming both majors and the remedy, a non-zero exit, no
// crash (%not fails on a crash) and no output file left behind
// (plugin/HostVersion.cpp). %other_clang is /usr/lib/llvm-N/bin/clang for
// another installed major N (test/CMakeLists.txt).
// REQUIRES: other-llvm
// RUN: rm -rf %t && mkdir -p %t
// RUN: %not %other_clang -fplugin=%ptm_plugin -I%ptm_include -O2 -c %s \
// RUN:   -o %t/fplugin.o 2>&1 | FileCheck %s -DOURS=%llvm_major -DTHEIRS=%other_major
// RUN: %not %other_clang -fpass-plugin=%ptm_plugin -I%ptm_include -O2 -c %s \
// RUN:   -o %t/fpass-plugin.o 2>&1 | FileCheck %s -DOURS=%llvm_major -DTHEIRS=%other_major
// RUN: %not %other_clang -fplugin=%ptm_plugin -I%ptm_include -O0 -S -emit-llvm \
// RUN:   %s -o %t/fplugin-O0.ll 2>&1 | FileCheck %s -DOURS=%llvm_major -DTHEIRS=%other_major
// RUN: test -z "$(ls -A %t)"
// RUN: %not %other_opt -load-pass-plugin=%ptm_plugin -passes=ptm-instrument \
// RUN:   -disable-output /dev/null 2>&1 | FileCheck %s -DOURS=%llvm_major -DTHEIRS=%other_major

// CHECK-NOT: {{.}}
// CHECK: ptm plugin: built for LLVM [[OURS]], loaded into LLVM [[THEIRS]] ({{[^)]+}}); use clang-[[OURS]] (ptm-config --cc) or rebuild ptm with -DPTM_LLVM_VERSION=[[THEIRS]] [plugin: {{.*}}libptm_plugin.so]
// CHECK-NOT: {{.}}

#include <ptm.h>

int counter;

void bump(int d) {
  PTM_BEGIN();
  counter += d;
  PTM_END();
}
