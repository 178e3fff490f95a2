/*
 * big.c - crash workload: transactions larger than a thread slot. Each
 * operation adds a pseudo-random 16-bit value to every one of BIG_WORDS
 * words, so its log outgrows the crash tests' 64 KiB slots (2,044 records:
 * BIG_WORDS word entries, or with coarse-grained logging 2 records per
 * 32-byte chunk) and extends into the heap (docs/pool.md "Log
 * extensions"): crashes land while the log extends, while it is in use and
 * while recovery walks it. The sums commute, so the state after `done`
 * operations is known whatever their order; every word is checked.
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>

#define BIG_WORDS 4400

struct big_root {
  uint64_t done;
  uint64_t words[BIG_WORDS];
};

static uint64_t initial(uint64_t seed, unsigned k) {
  return op_rand(seed, ~(uint64_t)0, k);
}

static uint64_t addend(uint64_t seed, uint64_t i, unsigned k) {
  return op_rand(seed, i, k) & 0xffff;
}

/* In transactions that fit a slot: the operations' extensions are the
 * first ones, in memory no extension header was ever written to (a block
 * not written back before its link is then seen as the garbage it is). */
static void big_init(void *p, uint64_t seed) {
  struct big_root *r = p;
  for (unsigned k0 = 0; k0 < BIG_WORDS; k0 += 400) {
    PTM_BEGIN();
    for (unsigned k = k0; k < k0 + 400 && k < BIG_WORDS; k++)
      r->words[k] = initial(seed, k);
    PTM_END();
  }
}

static uint64_t big_op(void *p, uint64_t i, uint64_t seed) {
  struct big_root *r = p;
  uint64_t position = 0;
  PTM_BEGIN();
  for (unsigned k = 0; k < BIG_WORDS; k++)
    r->words[k] += addend(seed, i, k);
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

static int big_check(const void *p, const uint64_t *order, uint64_t done,
                     uint64_t seed, char *why, size_t n) {
  const struct big_root *r = p;
  for (unsigned k = 0; k < BIG_WORDS; k++) {
    uint64_t want = initial(seed, k);
    for (uint64_t j = 0; j < done; j++)
      want += addend(seed, order[j], k);
    if (r->words[k] != want) {
      snprintf(why, n,
               "big: word %u holds %llu, %llu after the first %llu "
               "operations (a transaction half applied or half undone)",
               k, (unsigned long long)r->words[k], (unsigned long long)want,
               (unsigned long long)done);
      return 1;
    }
  }
  return 0;
}

static long big_blocks(const void *p) {
  (void)p;
  return 1; /* the root */
}

const struct workload big_workload = {
    "big", sizeof(struct big_root), big_init, big_op, big_check, big_blocks, 1,
    NULL};
