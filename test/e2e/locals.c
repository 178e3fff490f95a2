/* Local restoration: locals that live across PTM_BEGIN and are written inside
 * the transaction are back at their start value when it re-executes, so the
 * result under injected aborts is the no-abort result. */
#include "e2e.h"

#include <string.h>

static long shared;
static long hits; /* more barriers, so a sweep of 3 injects too */
static long shared_arr[8];

struct pair {
  int a;
  long b;
  char name[12];
};

/* Same-unit callee writing through a pointer to the caller's local. */
__attribute__((noinline)) static void add_to(long *p, long v) { *p += v; }
__attribute__((noinline)) static void fill(struct pair *p, int v) {
  p->a += v;
  p->b = p->b * 2 + v;
  p->name[v % 11] = 'x';
}

__attribute__((noinline)) static long scalar_case(long start) {
  long n = start; /* start == 0 */
  PTM_BEGIN();
  n++;
  shared += n;
  hits++;
  PTM_END();
  return n;
}

__attribute__((noinline)) static void array_case(int base) {
  int arr[4] = {base, base, base, base};
  PTM_BEGIN();
  for (int k = 0; k < 4; k++) {
    arr[k] += k + 1;
    shared_arr[k] += arr[k];
  }
  PTM_END();
}

__attribute__((noinline)) static void struct_case(int base) {
  struct pair p = {base, base, "abc"};
  PTM_BEGIN();
  p.a += 5;
  p.b += 7;
  shared_arr[4] += p.a + p.b;
  p.name[0] = 'z';
  shared_arr[5] += p.name[0] == 'z';
  PTM_END();
}

__attribute__((noinline)) static int loop_counter_case(int start) {
  int i = start; /* counter declared outside, advanced inside */
  PTM_BEGIN();
  for (; i < start + 5; i++)
    shared_arr[6] += i - start + 1; /* adds 15 */
  hits++;
  PTM_END();
  return i;
}

__attribute__((noinline)) static long escaped_case(long start) {
  long acc = start;
  struct pair p;
  memset(&p, 0, sizeof p);
  PTM_BEGIN();
  add_to(&acc, 10);
  fill(&p, 3);
  shared_arr[7] += acc + p.a + p.b;
  hits++;
  PTM_END();
  return acc + p.a * 1000 + p.b * 100000;
}

/* Local changed in a loop around the transaction: each transaction must see
 * the value of its own start. */
__attribute__((noinline)) static long chain_case(long start, int rounds) {
  long v = start;
  for (int r = 0; r < rounds; r++) {
    PTM_BEGIN();
    v = v * 3 + 1;
    shared += v & 0xff;
    hits++;
    PTM_END();
  }
  return v;
}

int main(void) {
  E2E_RESET();
  long zero = e2e_opaque(0);

  for (int i = 0; i < 10; i++) {
    long n = scalar_case(zero);
    CHECK_EQ(n, 1);
  }
  CHECK_EQ(shared, 10);
  E2E_CHECK_PHASE("scalar", 10);

  array_case((int)zero + 100);
  for (int k = 0; k < 4; k++)
    CHECK_EQ(shared_arr[k], 100 + k + 1);
  E2E_CHECK_PHASE("array", 1);

  struct_case((int)zero + 1);
  CHECK_EQ(shared_arr[4], 6 + 8);
  CHECK_EQ(shared_arr[5], 1);
  E2E_CHECK_PHASE("struct", 1);

  int end = loop_counter_case((int)zero + 7);
  CHECK_EQ(end, 12);
  CHECK_EQ(shared_arr[6], 15);
  E2E_CHECK_PHASE("loop counter", 1);

  long r = escaped_case(zero + 5);
  CHECK_EQ(r, 15 + 3 * 1000 + 3 * 100000);
  CHECK_EQ(shared_arr[7], 15 + 3 + 3);
  E2E_CHECK_PHASE("escaped", 1);

  shared = 0;
  long v = chain_case(zero + 1, 12), xv = 1, xs = 0;
  for (int k = 0; k < 12; k++) {
    xv = xv * 3 + 1;
    xs += xv & 0xff;
  }
  CHECK_EQ(v, xv);
  CHECK_EQ(shared, xs);
  E2E_CHECK_PHASE("chain", 12);

  return e2e_finish("locals");
}
