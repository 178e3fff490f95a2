/* Variadic functions and stack memory inside transactions (issue 49).
 *
 * A va_list is filled by va_start and the register arguments are spilled by
 * the callee's prologue, both with stores no barrier sees; stack arguments
 * are stored by the caller the same way. A library that served a log entry
 * left at the same stack address by an earlier frame of the transaction
 * (a callee that returned) would return garbage here. Each case runs
 * several times in one transaction and over many transactions, and its
 * results go to shared memory written through the barriers.
 *
 *   repeat     the same variadic call twice in one transaction
 *   many       7 to 14 arguments (past the registers: the overflow area)
 *   mixed      longs and doubles (the general and floating-point offsets)
 *   nested     a va_list handed to a v-function, variadic calls in between
 *   copy       va_copy: two walks over the same arguments
 *   vsnprintf  a va_list built by the program, partly consumed first
 *   dead       a callee scribbles over its own frame, then a variadic call
 *              and a call with stack arguments reuse those addresses
 *   param      a callee writes through a pointer to its own stack parameter
 *   byval      a structure passed by value after dead-frame writes
 *   region     va_start twice inside a region of a variadic function
 */
#include "e2e.h"

#include <stdarg.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static long results[16];
static char text[128];

NOINLINE static long sum_longs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, long);
  va_end(ap);
  return s;
}

/* Pairs (long, double); the doubles' sum scaled to an integer. */
NOINLINE static long sum_mixed(int pairs, ...) {
  va_list ap;
  va_start(ap, pairs);
  long s = 0;
  double d = 0;
  for (int i = 0; i < pairs; i++) {
    s += va_arg(ap, long);
    d += va_arg(ap, double);
  }
  va_end(ap);
  return s * 1000 + (long)(d * 10);
}

NOINLINE static long vsum(int n, va_list ap) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, long);
  return s;
}

NOINLINE static long sum_via(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = vsum(n, ap);
  va_end(ap);
  return s;
}

/* Calls two variadic functions with its own arguments, transformed. */
NOINLINE static long nested(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
  va_end(ap);
  return sum_via(3, a * 2, b * 2, c * 2) + sum_longs(2, a + b, c) +
         sum_via(1, n);
}

/* Two walks: the first over a copy made before it, the second over a copy
 * handed to vsum (a va_list whose address escapes). */
NOINLINE static long twice(int n, ...) {
  va_list ap, aq, ar;
  va_start(ap, n);
  va_copy(aq, ap);
  long s1 = 0;
  for (int i = 0; i < n; i++)
    s1 += va_arg(ap, long);
  long s2 = 0;
  for (int i = 0; i < n; i++)
    s2 += va_arg(aq, long) * 10;
  va_end(aq);
  va_end(ap);
  va_start(ap, n);
  va_copy(ar, ap);
  long s3 = vsum(n, ar) * 100;
  va_end(ar);
  va_end(ap);
  return s1 + s2 + s3;
}

NOINLINE static int format(char *dst, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(dst, size, fmt, ap);
  va_end(ap);
  return r;
}

/* The first argument is a count of ints to skip, consumed by va_arg before
 * the rest of the list goes to vsnprintf. */
NOINLINE static int format_skip(char *dst, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int skip = va_arg(ap, int);
  for (int i = 0; i < skip; i++)
    (void)va_arg(ap, int);
  int r = vsnprintf(dst, size, fmt, ap);
  va_end(ap);
  return r;
}

NOINLINE static void fill(long *p, int n, long v) {
  for (int i = 0; i < n; i++)
    p[i] = v + i;
}

/* A frame full of words written through the barriers, then gone. */
NOINLINE static long scribble(long v) {
  long big[96];
  fill(big, 96, v);
  return big[3] == v + 3;
}

NOINLINE static long stack_args(long a, long b, long c, long d, long e, long f,
                                long g, long h, long i) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i;
}

NOINLINE static void store_at(long *p, long v) { *p = v; }

/* Writes into its own stack parameters (the caller's argument area). */
NOINLINE static long poke_params(long a, long b, long c, long d, long e, long f,
                                 long g, long h) {
  store_at(&g, -1);
  store_at(&h, -2);
  return a + b + c + d + e + f + g + h;
}

struct block {
  long v[8];
};

NOINLINE static long sum_block(struct block b) {
  long *p = b.v;
  store_at(&p[7], p[7] + 1); /* the copy's address escapes */
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += p[i];
  return s;
}

/* A variadic function whose own region walks its arguments twice. */
NOINLINE static long region_sum(int n, ...) {
  long s = 0;
  PTM_BEGIN();
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    s += va_arg(ap, long);
  va_end(ap);
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    s += 100 * va_arg(ap, long);
  va_end(ap);
  results[15] += s;
  PTM_END();
  return s;
}

static long expect_many(int n, long base) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += base + i;
  return s;
}

int main(void) {
  E2E_RESET();
  enum { ROUNDS = 40 };
  long want[16] = {0};
  char want_text[128];
  for (int r = 0; r < ROUNDS; r++) {
    long k = r + 1;
    PTM_BEGIN();
    results[0] += sum_longs(2, k, 2 * k);
    results[0] += sum_longs(2, 10 * k, 20 * k);
    results[0] += sum_longs(3, k, k, k);
    PTM_END();
    want[0] += 3 * k + 30 * k + 3 * k;

    PTM_BEGIN();
    results[1] += sum_longs(7, k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6);
    results[1] +=
        sum_longs(14, k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7, k + 8,
                  k + 9, k + 10, k + 11, k + 12, k + 13);
    results[1] +=
        sum_longs(9, k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7, k + 8);
    PTM_END();
    want[1] += expect_many(7, k) + expect_many(14, k) + expect_many(9, k);

    PTM_BEGIN();
    results[2] += sum_mixed(2, k, 0.5, 2 * k, 1.5);
    results[2] += sum_mixed(5, k, 0.5, k, 0.5, k, 0.5, k, 0.5, k, 0.5);
    results[2] += sum_mixed(9, k, 1.0, k, 1.0, k, 1.0, k, 1.0, k, 1.0, k, 1.0,
                            k, 1.0, k, 1.0, k, 1.0);
    PTM_END();
    want[2] += (3 * k * 1000 + 20) + (5 * k * 1000 + 25) + (9 * k * 1000 + 90);

    PTM_BEGIN();
    results[3] += nested(3, k, 2 * k, 3 * k);
    results[3] += sum_via(4, k, k, k, k);
    results[3] += nested(3, 5 * k, k, k);
    PTM_END();
    want[3] += (12 * k + 6 * k + 3) + 4 * k + (14 * k + 7 * k + 3);

    PTM_BEGIN();
    results[4] += twice(3, k, 2 * k, 3 * k);
    results[4] += twice(8, k, k, k, k, k, k, k, k);
    PTM_END();
    want[4] += 6 * k * 111 + 8 * k * 111;

    PTM_BEGIN();
    results[5] += format(text, sizeof text, "%ld-%s-%d", k, "x", 7);
    results[5] += format_skip(text, sizeof text, "%ld/%d", 2, 11, 12, k, 9);
    results[5] += format(text + 64, 64, "[%5.1f|%c]", 2.5 * (double)k, 'q');
    PTM_END();
    char a[64], b[64], c[64];
    int la = snprintf(a, sizeof a, "%ld-%s-%d", k, "x", 7);
    int lb = snprintf(b, sizeof b, "%ld/%d", k, 9);
    int lc = snprintf(c, sizeof c, "[%5.1f|%c]", 2.5 * (double)k, 'q');
    want[5] += la + lb + lc;
    CHECK(strcmp(text, b) == 0, "round %d: \"%s\" != \"%s\"", r, text, b);
    CHECK(strcmp(text + 64, c) == 0, "round %d: \"%s\" != \"%s\"", r, text + 64,
          c);
    strcpy(want_text, b);

    PTM_BEGIN();
    results[6] += scribble(0x5151515151510000L + r);
    results[6] += sum_longs(2, k, 3 * k);
    results[6] += scribble(0x2323232323230000L + r);
    results[6] += stack_args(k, k, k, k, k, k, k, k, k);
    results[6] += scribble(0x7777777777770000L + r);
    results[6] += sum_mixed(1, k, 0.5);
    PTM_END();
    want[6] += 1 + 4 * k + 1 + 45 * k + 1 + (k * 1000 + 5);

    PTM_BEGIN();
    results[7] += poke_params(k, k, k, k, k, k, k, k);
    results[7] += stack_args(1, 2, 3, 4, 5, 6, k, k, k);
    results[7] += poke_params(1, 1, 1, 1, 1, 1, 1, 1);
    results[7] += sum_longs(8, k, k, k, k, k, k, k, k);
    PTM_END();
    want[7] += (6 * k - 3) + (91 + 24 * k) + (6 - 3) + 8 * k;

    struct block blk;
    for (int i = 0; i < 8; i++)
      blk.v[i] = k * i;
    PTM_BEGIN();
    results[8] += scribble(0x1212121212120000L + r);
    results[8] += sum_block(blk);
    results[8] += sum_block(blk);
    PTM_END();
    want[8] += 1 + 2 * (28 * k + 1);

    long rs = region_sum(3, k, 2 * k, 4 * k);
    CHECK_EQ(rs, 707 * k);
    want[15] += 707 * k;
  }
  for (int i = 0; i < 16; i++)
    CHECK(results[i] == want[i], "case %d: %ld != %ld", i, results[i], want[i]);
  CHECK(strcmp(text, want_text) == 0, "text \"%s\"", text);
  E2E_CHECK_PHASE("varargs", ROUNDS * 10);
  return e2e_finish("varargs");
}
