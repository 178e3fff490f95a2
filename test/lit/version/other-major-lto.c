// The LTO link (ptm-config --ldflags loads the plugin into ld.lld) with the
// linker of another LLVM major: the plugin's refusal, a non-zero exit and
// no program (plugin/HostVersion.cpp).
// REQUIRES: other-llvm, other-lld
// RUN: rm -rf %t && mkdir -p %t
// RUN: %other_clang -flto -c %s -o %t/main.o
// RUN: %not %other_clang -flto -fuse-ld=lld -Wl,--load-pass-plugin=%ptm_plugin \
// RUN:   %t/main.o -o %t/main 2>&1 | FileCheck %s -DOURS=%llvm_major -DTHEIRS=%other_major
// RUN: test ! -e %t/main

// CHECK: ptm plugin: built for LLVM [[OURS]], loaded into LLVM [[THEIRS]] (ld.lld); use clang-[[OURS]] (ptm-config --cc) or rebuild ptm with -DPTM_LLVM_VERSION=[[THEIRS]]

int main(void) { return 0; }
