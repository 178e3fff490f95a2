// C++ (without exceptions, where the region markers are plain calls): a
// lambda run by ptm::atomic calls a function template; at -O0 the lambda's
// call operator and the template instance are called as clones, the template
// clone linkonce_odr in its own comdat, fully instrumented.
// RUN: %clangxx -O0 -fno-exceptions -S -emit-llvm -o - %s | FileCheck %s

#include <ptm.h>

int g;

template <class T> void put(T v) { g = (int)v; }

void f() {
  ptm::atomic([&] { put<long>(3); });
}

// CHECK-DAG:  $_Z3putIlEvT_.ptm = comdat any
// CHECK-LABEL: define internal void @"_ZN3ptm6atomicIZ1fvE3$_0EEDTclfp_EEOT_"(
// CHECK:      call void @__ptm_tx_begin(
// CHECK-NEXT: [[CAP:%.*]] = load ptr, ptr
// CHECK-NEXT: call void @"_ZZ1fvENK3$_0clEv.ptm"(ptr {{.*}}[[CAP]])
// CHECK-NEXT: call i32 @__ptm_tx_commit()
// CHECK:      define internal void @"_ZZ1fvENK3$_0clEv.ptm"(
// CHECK:      call void @_Z3putIlEvT_.ptm(i64 noundef 3)
// CHECK:      define linkonce_odr dso_local void @_Z3putIlEvT_.ptm(i64 noundef %{{.*}}) #{{[0-9]+}} comdat
// CHECK:      call void @__ptm_write_4(ptr @g,
