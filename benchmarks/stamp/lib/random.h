/*
 * random.h - a seeded Mersenne twister (MT19937, Matsumoto and Nishimura
 * 1998) per random_t, as STAMP's random module: the same seed gives the
 * same sequence on every machine. Plain C, so usable inside transactions.
 */
#ifndef STAMP_RANDOM_H
#define STAMP_RANDOM_H

#define RANDOM_MT_N 624

typedef struct random {
  unsigned long mt[RANDOM_MT_N];
  long mti;
} random_t;

random_t *random_alloc(void); /* seeded with 0 */
void random_free(random_t *r);
void random_seed(random_t *r, unsigned long seed);
/* A uniform 32-bit value. */
unsigned long random_generate(random_t *r);
/* random_generate() % N: the draw of a shuffle's index in [0, N). */
long random_below(random_t *r, long n);
/* FIRST, FIRST + 1, ..., FIRST + N - 1 in random order into A (Fisher-Yates
 * from the last element down, one random_below() each). */
void random_permutation(random_t *r, long *a, long n, long first);

#endif /* STAMP_RANDOM_H */
