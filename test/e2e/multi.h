#ifndef E2E_MULTI_H
#define E2E_MULTI_H

typedef void (*op_fn)(long *, long);

struct atomic_arg {
  long *target;
  long delta;
};

extern long b_calls;
long b_add(long *p, long v);
void b_apply(op_fn cb, long *p, long v);
extern op_fn b_ops[2];
void b_atomic_body(void *arg);

#endif
