// An exception thrown by a callee inside a C++ region: the callee is invoked
// as its clone; on the normal path the commit precedes the region guard's
// __ptm_region_unwind; the cleanup pad runs __ptm_region_unwind (which rolls
// the transaction back) and the exception propagates with resume, with no
// barrier on the exception path after the guard.
// RUN: %clangxx -O1 -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int g;

__attribute__((noinline)) void may_throw(int x) {
  if (x)
    throw x;
  g = x;
}

void f(int x) {
  PTM_BEGIN();
  g = 1;
  may_throw(x);
  PTM_END();
}

// CHECK-LABEL: define dso_local void @_Z1fi(
// CHECK:      [[D:%.*]] = call i32 @__ptm_region_depth()
// CHECK:      call void @__ptm_tx_begin(
// CHECK-NEXT: call void @__ptm_write_4(ptr nonnull @g, i32 1)
// CHECK-NEXT: invoke void @_Z9may_throwi.ptm(i32 noundef %0)
// CHECK-NEXT:   to label %[[OK:.*]] unwind label %[[LP:.*]]
// CHECK:      [[OK]]:
// CHECK-NEXT: call i32 @__ptm_tx_commit()
// CHECK:      call void @__ptm_region_unwind(i32 noundef [[D]])
// CHECK-NEXT: ret void
// CHECK:      [[LP]]:
// CHECK-NEXT: [[E:%.*]] = landingpad { ptr, i32 }
// CHECK-NEXT:   cleanup
// CHECK-NEXT: call void @__ptm_region_unwind(i32 noundef [[D]])
// CHECK-NEXT: resume { ptr, i32 } [[E]]
// CHECK-NOT:  @_Z9may_throwi(
// CHECK:      define dso_local void @_Z9may_throwi.ptm(
