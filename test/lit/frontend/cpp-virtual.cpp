// C++ virtual call inside a region (built without exceptions): the vtable
// load is a read barrier and the target is translated with
// __ptm_clone_lookup(fp, where) before the call.
// RUN: %clangxx -O1 -fno-exceptions -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

struct B {
  virtual void m(int);
};

void v(B *b) {
  PTM_BEGIN();
  b->m(1);
  PTM_END();
}

// CHECK-LABEL: define dso_local void @_Z1vP1B(
// CHECK:      call void @__ptm_tx_begin(ptr nonnull [[WHERE:@.ptm.str[.0-9]*]])
// CHECK-NEXT: [[VT:%.*]] = call i64 @__ptm_read_8(ptr %0)
// CHECK-NEXT: [[VTP:%.*]] = inttoptr i64 [[VT]] to ptr
// CHECK-NEXT: [[FPR:%.*]] = call i64 @__ptm_read_8(ptr [[VTP]])
// CHECK-NEXT: [[FP:%.*]] = inttoptr i64 [[FPR]] to ptr
// CHECK-NEXT: [[T:%.*]] = call ptr @__ptm_clone_lookup(ptr [[FP]], ptr nonnull [[WHERE]])
// CHECK-NEXT: call void [[T]](ptr noundef {{.*}}%0, i32 noundef 1)
// CHECK-NEXT: call i32 @__ptm_tx_commit()
