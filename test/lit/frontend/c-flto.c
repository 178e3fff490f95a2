// With -flto, the pass runs in the pre-link pipeline: the bitcode written for
// the link is already instrumented (and registered).
// RUN: %clang -O2 -flto -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int counter;

static void bump(int d) { counter += d; }

void f(int d) {
  PTM_BEGIN();
  bump(d);
  PTM_END();
}

// CHECK-LABEL: define dso_local void @f(
// CHECK:      [[BUF:%.*]] = call ptr @__ptm_tx_checkpoint()
// CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUF]])
// CHECK:      call void @__ptm_tx_begin(
// CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr nonnull @counter)
// CHECK-NEXT: [[S:%.*]] = add nsw i32 [[V]], %0
// CHECK-NEXT: call void @__ptm_write_4(ptr nonnull @counter, i32 [[S]])
// CHECK-NEXT: call i32 @__ptm_tx_commit()
// CHECK-LABEL: define dso_local void @f.ptm(
// CHECK:      call void @__ptm_register_clones(ptr nonnull @__ptm_clone_table, i64 1)
