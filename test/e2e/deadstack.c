/* Writes through pointers into the stack frames of functions called inside a
 * transaction (a 4 KiB local array, and a result returned through a pointer
 * to a caller's local two calls deep). Those frames are dead when the
 * transaction commits or aborts, and the commit's (or rollback's) own frames
 * may occupy the same addresses: no deferred store, redo write-back or undo
 * restore may touch them then. */
#include "e2e.h"

static long shared_sum;

struct item {
  long key, value;
};
static struct item table[64];

__attribute__((noinline)) static void store_at(long *p, long v) { *p = v; }

__attribute__((noinline)) static long fill(long v) {
  long big[512];
  for (int i = 0; i < 512; i++)
    store_at(&big[i], v);
  return big[7] == v;
}

__attribute__((noinline)) static int lookup(long key, struct item **pp) {
  for (int i = 0; i < 64; i++)
    if (table[i].key == key) {
      *pp = &table[i];
      return 1;
    }
  *pp = 0;
  return 0;
}

__attribute__((noinline)) static long bump(long key) {
  struct item *p;
  if (!lookup(key, &p))
    return 0;
  p->value++;
  return 1;
}

__attribute__((noinline)) static long outer(long key) {
  return bump(key) + bump(key + 64); /* the second finds nothing */
}

int main(void) {
  E2E_RESET();
  for (int i = 0; i < 64; i++)
    table[i].key = i;
  for (int rep = 0; rep < 64; rep++) {
    PTM_BEGIN();
    shared_sum += fill(0x4141414141414141L + rep);
    PTM_END();
    PTM_BEGIN();
    shared_sum += outer(rep % 64);
    PTM_END();
  }
  CHECK_EQ(shared_sum, 128);
  long values = 0;
  for (int i = 0; i < 64; i++)
    values += table[i].value;
  CHECK_EQ(values, 64);
  return e2e_finish("deadstack");
}
