// clang -fpass-plugin=libptm_plugin.so (without -fplugin) runs the pass too,
// and -fplugin with -fpass-plugin together instrument once (module flag).
// RUN: %cc_noplugin -O1 -fpass-plugin=%ptm_plugin -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang -O1 -fpass-plugin=%ptm_plugin -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int counter;

static void bump(int d) { counter += d; }

void f(int d) {
  PTM_BEGIN();
  bump(d);
  PTM_END();
}

// CHECK-LABEL: define dso_local void @f(
// CHECK:      call ptr @__ptm_tx_checkpoint()
// CHECK-NOT:  call ptr @__ptm_tx_checkpoint()
// CHECK:      call void @__ptm_tx_begin(
// CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr nonnull @counter)
// CHECK-NEXT: [[S:%.*]] = add nsw i32 [[V]], %0
// CHECK-NEXT: call void @__ptm_write_4(ptr nonnull @counter, i32 [[S]])
// CHECK-NEXT: call i32 @__ptm_tx_commit()
// CHECK-NOT:  call i32 @__ptm_tx_commit()
// CHECK-LABEL: define dso_local void @f.ptm(
// CHECK-NOT:  define {{.*}}@f.ptm.ptm(
