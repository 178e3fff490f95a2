/* MT19937: see random.h. */
#include "random.h"

#include "tm.h"

#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfUL
#define MT_UPPER 0x80000000UL
#define MT_LOWER 0x7fffffffUL

random_t *random_alloc(void) {
  random_t *r = TM_MALLOC(sizeof *r);
  if (r)
    random_seed(r, 0);
  return r;
}

void random_free(random_t *r) { TM_FREE(r); }

void random_seed(random_t *r, unsigned long seed) {
  r->mt[0] = seed & 0xffffffffUL;
  for (long i = 1; i < RANDOM_MT_N; i++) {
    unsigned long prev = r->mt[i - 1];
    r->mt[i] = (1812433253UL * (prev ^ (prev >> 30)) + (unsigned long)i) &
               0xffffffffUL;
  }
  r->mti = RANDOM_MT_N;
}

/* Regenerates the whole state array (the "twist"). */
static void twist(random_t *r) {
  for (long i = 0; i < RANDOM_MT_N; i++) {
    unsigned long y =
        (r->mt[i] & MT_UPPER) | (r->mt[(i + 1) % RANDOM_MT_N] & MT_LOWER);
    unsigned long v = r->mt[(i + MT_M) % RANDOM_MT_N] ^ (y >> 1);
    r->mt[i] = (y & 1UL) ? v ^ MT_MATRIX_A : v;
  }
  r->mti = 0;
}

unsigned long random_generate(random_t *r) {
  if (r->mti >= RANDOM_MT_N)
    twist(r);
  unsigned long y = r->mt[r->mti++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680UL;
  y ^= (y << 15) & 0xefc60000UL;
  y ^= y >> 18;
  return y & 0xffffffffUL;
}

long random_below(random_t *r, long n) {
  return (long)(random_generate(r) % (unsigned long)n);
}

void random_permutation(random_t *r, long *a, long n, long first) {
  for (long i = 0; i < n; i++)
    a[i] = first + i;
  for (long i = n - 1; i > 0; i--) {
    long j = random_below(r, i + 1);
    long t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
