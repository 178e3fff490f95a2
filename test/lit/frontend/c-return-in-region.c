// A return out of a PTM_BEGIN() region is diagnosed with a file:line warning,
// plus the unbalanced-markers warning for the function. At -O0 clang merges
// the returns into one block located at the function's closing brace, which
// is the location the warning gets.
// RUN: %clang -g -O0 -S -emit-llvm -o /dev/null %s 2>&1 | FileCheck %s

#include <ptm.h>

int g;

// CHECK: c-return-in-region.c:[[@LINE+9]]:1: warning: ptm: control leaves a transaction without PTM_END() (return, break or goto out of a PTM_BEGIN() region); the transaction stays open{{$}}
// CHECK: c-return-in-region.c:[[@LINE+1]]:5: warning: ptm: PTM_BEGIN()/PTM_END() are not balanced on every path in function 'f'
int f(int x) {
  PTM_BEGIN();
  if (x)
    return 1;
  g = x;
  PTM_END();
  return 0;
}
