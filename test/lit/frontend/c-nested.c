// Nested PTM_BEGIN()/PTM_END() in C: flat nesting, one transaction.
// RUN: %clang -O1 -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int a, b;

void f(void) {
  PTM_BEGIN();
  a = 1;
  PTM_BEGIN();
  b = 2;
  PTM_END();
  PTM_END();
}

// CHECK-LABEL: define dso_local void @f(
// CHECK:      call ptr @__ptm_tx_checkpoint()
// CHECK-NOT:  call ptr @__ptm_tx_checkpoint()
// CHECK:      call void @__ptm_tx_begin(
// CHECK-DAG:  call void @__ptm_write_4(ptr nonnull @a, i32 1)
// CHECK-DAG:  call void @__ptm_write_4(ptr nonnull @b, i32 2)
// CHECK:      call i32 @__ptm_tx_commit()
// CHECK-NOT:  call i32 @__ptm_tx_commit()
// CHECK-NOT:  __ptm_region_
// CHECK:      ret void
