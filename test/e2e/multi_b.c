/* Second unit of the multi-unit program (see multi_a.c). */
#include "multi.h"

long b_calls;

long b_add(long *p, long v) {
  *p += v;
  b_calls++;
  return *p;
}

static void b_double(long *p, long v) {
  (void)v;
  *p *= 2;
}

op_fn b_ops[2] = {b_double, 0};

void b_apply(op_fn cb, long *p, long v) {
  /* An indirect call inside another unit's clone. */
  cb(p, v);
  b_calls++;
}

void b_atomic_body(void *arg) {
  struct atomic_arg *a = arg;
  for (int i = 0; i < 4; i++)
    a->target[i] += a->delta;
  b_calls++;
}
