// A C++ region compiled with exceptions is instrumented like a C one.
// RUN: %clangxx -O1 -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int g;

void f(int x) {
  PTM_BEGIN();
  g = x;
  PTM_END();
}

// CHECK-LABEL: define dso_local void @_Z1fi(
// CHECK:      call ptr @__ptm_tx_checkpoint()
// CHECK:      call void @__ptm_tx_begin(
// CHECK:      call void @__ptm_write_4(ptr nonnull @g, i32 %0)
// CHECK:      call i32 @__ptm_tx_commit()
// CHECK-NOT:  @__ptm_region_begin()
// CHECK-NOT:  @__ptm_region_end()
// CHECK:      ret void
