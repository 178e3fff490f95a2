// PTM_PURE and PTM_SAFE from ptm.h, through clang: the pure function is
// called as is in the region and not cloned; the PTM_SAFE function, which no
// transaction of this unit calls, is cloned as a needed clone, so its inline
// asm is warned about at compile time (unlike the speculative clone of the
// plain external function `other`).
// RUN: %clang -O0 -g -S -emit-llvm -o %t.ll %s 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: FileCheck %s < %t.ll

#include <ptm.h>

int g;

PTM_PURE int square(int x) { return x * x; }
PTM_SAFE void helper(int v) { g = v; __asm__ volatile("nop"); }
void other(int v) { g = v; __asm__ volatile("nop"); }

void f(int x) {
  PTM_BEGIN();
  g = square(x);
  PTM_END();
}

// WARN: c-pure-safe.c:[[@LINE-9]]:38: warning: ptm: inline assembly inside a transaction
// WARN-NOT: c-pure-safe.c:[[@LINE-9]]:
// WARN: 1 warning generated.

// CHECK:      @__ptm_clone_table = private constant [3 x { ptr, ptr }]
// CHECK-SAME: { ptr @helper, ptr @helper.ptm }
// CHECK-NOT:  @square.ptm
// CHECK-LABEL: define dso_local void @f(
// CHECK:      call void @__ptm_tx_begin(
// CHECK:      [[S:%.*]] = call i32 @square(
// CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[S]])
// CHECK-LABEL: define dso_local void @helper.ptm(
// CHECK:      call void @__ptm_write_4(ptr @g,
// CHECK:      call void @__ptm_unsupported(i32 1,
// CHECK-NOT:  @square.ptm
