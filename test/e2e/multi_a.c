/* Multi-unit programs: a transaction in this unit calls a function defined in
 * multi_b.c (direct call), calls through function pointers (indirect calls
 * translated at run time, to clones of both units), passes a callback to the
 * other unit, and runs ptm_atomic with a function of each unit. */
#include "e2e.h"
#include "multi.h"

#define NTX 50

static long value;
static long vec[4];

static void a_add3(long *p, long v) { *p += 3 * v; }

static void a_atomic_body(void *arg) {
  struct atomic_arg *a = arg;
  for (int i = 0; i < 4; i++)
    a->target[i] -= a->delta;
  value++;
}

/* Opaque to the optimizer, so the calls stay indirect. */
static op_fn volatile ops[2];

int main(void) {
  ops[0] = a_add3;
  ops[1] = b_ops[0]; /* b_double, a static function of the other unit */
  E2E_RESET();

  /* Direct cross-unit call. */
  long last = 0;
  for (int i = 0; i < NTX; i++) {
    PTM_BEGIN();
    last = b_add(&value, i);
    PTM_END();
  }
  CHECK_EQ(value, NTX * (NTX - 1) / 2);
  CHECK_EQ(last, value);
  CHECK_EQ(b_calls, NTX);
  E2E_CHECK_PHASE("direct", NTX);

  /* Indirect calls through a table: a same-unit and an other-unit target. */
  long x = 1;
  for (int i = 0; i < 10; i++)
    x = x * 2 + 3 * i;
  value = 1;
  for (int i = 0; i < 10; i++) {
    PTM_BEGIN();
    ops[1](&value, 0);
    ops[0](&value, i);
    PTM_END();
  }
  CHECK_EQ(value, x);
  E2E_CHECK_PHASE("indirect", 10);

  /* A callback of this unit called by the other unit. */
  value = 0;
  for (int i = 0; i < 10; i++) {
    PTM_BEGIN();
    b_apply(a_add3, &value, i);
    PTM_END();
  }
  CHECK_EQ(value, 3 * 45);
  CHECK_EQ(b_calls, NTX + 10);
  E2E_CHECK_PHASE("callback", 10);

  /* ptm_atomic with a function of this unit and of the other. */
  struct atomic_arg arg = {vec, 5};
  value = 0;
  for (int i = 0; i < 10; i++) {
    ptm_atomic(b_atomic_body, &arg);
    ptm_atomic(a_atomic_body, &arg);
    ptm_atomic(b_atomic_body, &arg);
  }
  for (int i = 0; i < 4; i++)
    CHECK_EQ(vec[i], 10 * 5);
  CHECK_EQ(value, 10);
  CHECK_EQ(b_calls, NTX + 10 + 20);
  E2E_CHECK_PHASE("ptm_atomic", 30);

  return e2e_finish("multi");
}
