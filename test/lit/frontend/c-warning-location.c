// With -g, the pass's warnings carry the file:line:column of the construct,
// and the `where` strings passed to the runtime name the same place.
// RUN: %clang -g -O1 -S -emit-llvm -o %t.ll %s 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: FileCheck %s < %t.ll

#include <ptm.h>

int g;

void f(void) {
  PTM_BEGIN();
  g = 1;
  __asm__ volatile("nop");
  PTM_END();
}

// WARN: c-warning-location.c:[[@LINE-4]]:3: warning: ptm: inline assembly inside a transaction cannot be made transactional; it runs as is{{$}}
// WARN: 1 warning generated.

// CHECK-DAG:  [[BEGIN:@.ptm.str[.0-9]*]] = private unnamed_addr constant {{.*}} c"{{.*}}c-warning-location.c:[[#@LINE-9]]:3\00"
// CHECK-DAG:  [[ASM:@.ptm.str[.0-9]*]] = private unnamed_addr constant {{.*}} c"{{.*}}c-warning-location.c:[[#@LINE-8]]:3\00"
// CHECK-LABEL: define dso_local void @f(
// CHECK:      call void @__ptm_tx_begin(ptr nonnull [[BEGIN]])
// CHECK:      call void @__ptm_unsupported(i32 1, ptr nonnull {{@.ptm.str[.0-9]*}}, ptr nonnull [[ASM]])
