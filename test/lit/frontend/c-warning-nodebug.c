// Without -g there is no instruction location: clang points at the function's
// declaration and the message names the function; the runtime's `where`
// string is "function 'f'".
// RUN: %clang -O1 -S -emit-llvm -o %t.ll %s 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: FileCheck %s < %t.ll

#include <ptm.h>

int g;

void f(void) {
  PTM_BEGIN();
  g = 1;
  __asm__ volatile("nop");
  PTM_END();
}

// WARN: c-warning-nodebug.c:11:6: warning: ptm: inline assembly inside a transaction cannot be made transactional; it runs as is (in function 'f')

// CHECK:      [[WHERE:@.ptm.str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"function 'f'\00"
// CHECK-LABEL: define dso_local void @f(
// CHECK:      call void @__ptm_tx_begin(ptr nonnull [[WHERE]])
// CHECK:      call void @__ptm_unsupported(i32 1, ptr nonnull {{@.ptm.str[.0-9]*}}, ptr nonnull [[WHERE]])
