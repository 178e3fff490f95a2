/*
 * alloc.c - crash workload: allocation-heavy transactions. 16 slots of
 * blocks; operation i frees the block in slot a(i) (if any) and puts a new
 * block of 16..520 bytes there, filled with a pattern of i, and frees the
 * block in slot b(i). Invariants: every slot holds exactly the block of the
 * operation the first `done` operations of the commit order leave there
 * (size, stamp, pattern),
 * no two live blocks overlap (no double allocation), and the heap holds
 * exactly the live blocks (no leak), and `ptm-pool check` finds it sound.
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>
#include <stdlib.h>

#define ALLOC_SLOTS 16

struct alloc_root {
  uint64_t done;
  uint64_t *block[ALLOC_SLOTS]; /* word 0: stamp, word 1: size, then fill */
};

static uint64_t fill_word(uint64_t stamp, uint64_t w) {
  return stamp * 0x100000001b3ull + w;
}

/* Size of the block operation I allocates: 16..520 bytes, several classes. */
static uint64_t block_size(uint64_t seed, uint64_t i) {
  return 16 + 8 * (op_rand(seed, i, 2) % 64);
}

static void alloc_init(void *p, uint64_t seed) { (void)p, (void)seed; }

static uint64_t alloc_op(void *p, uint64_t i, uint64_t seed) {
  struct alloc_root *r = p;
  unsigned a = (unsigned)(op_rand(seed, i, 0) % ALLOC_SLOTS);
  unsigned b = (unsigned)(op_rand(seed, i, 1) % ALLOC_SLOTS);
  uint64_t size = block_size(seed, i);
  uint64_t position = 0;
  PTM_BEGIN();
  ptm_free(r->block[a]);
  uint64_t *blk = ptm_malloc(size);
  if (!blk)
    workload_out_of_memory("alloc block");
  blk[0] = i;
  blk[1] = size;
  for (uint64_t w = 2; w < size / 8; w++)
    blk[w] = fill_word(i, w);
  r->block[a] = blk;
  if (b != a) {
    ptm_free(r->block[b]);
    r->block[b] = NULL;
  }
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

/* Stamp of each slot's block after the operations ORDER[0..DONE-1]
 * (UINT64_MAX: empty). */
static void alloc_model(const uint64_t *order, uint64_t done, uint64_t seed,
                        uint64_t *stamp) {
  for (int s = 0; s < ALLOC_SLOTS; s++)
    stamp[s] = UINT64_MAX;
  for (uint64_t j = 0; j < done; j++) {
    uint64_t i = order[j];
    unsigned a = (unsigned)(op_rand(seed, i, 0) % ALLOC_SLOTS);
    unsigned b = (unsigned)(op_rand(seed, i, 1) % ALLOC_SLOTS);
    stamp[a] = i;
    if (b != a)
      stamp[b] = UINT64_MAX;
  }
}

static int alloc_check(const void *p, const uint64_t *order, uint64_t done,
                       uint64_t seed, char *why, size_t n) {
  const struct alloc_root *r = p;
  uint64_t stamp[ALLOC_SLOTS];
  alloc_model(order, done, seed, stamp);
  for (int s = 0; s < ALLOC_SLOTS; s++) {
    const uint64_t *blk = r->block[s];
    if (stamp[s] == UINT64_MAX) {
      if (blk) {
        snprintf(why, n,
                 "alloc: slot %d holds a block, expected empty after "
                 "%llu operations",
                 s, (unsigned long long)done);
        return 1;
      }
      continue;
    }
    uint64_t i = stamp[s];
    uint64_t size = block_size(seed, i);
    if (!blk || blk[0] != i || blk[1] != size) {
      snprintf(why, n,
               "alloc: slot %d does not hold the %llu-byte block of operation "
               "%llu (first %llu operations)",
               s, (unsigned long long)size, (unsigned long long)i,
               (unsigned long long)done);
      return 1;
    }
    for (uint64_t w = 2; w < size / 8; w++)
      if (blk[w] != fill_word(i, w)) {
        snprintf(why, n,
                 "alloc: word %llu of the block of operation %llu (slot %d) "
                 "was overwritten (double allocation?)",
                 (unsigned long long)w, (unsigned long long)i, s);
        return 1;
      }
    for (int t = 0; t < s; t++) {
      const uint64_t *o = r->block[t];
      if (o && (const char *)o < (const char *)blk + size &&
          (const char *)blk < (const char *)o + o[1]) {
        snprintf(why, n, "alloc: the blocks of slots %d and %d overlap", t, s);
        return 1;
      }
    }
  }
  return 0;
}

static long alloc_blocks(const void *p) {
  const struct alloc_root *r = p;
  long blocks = 1;
  for (int s = 0; s < ALLOC_SLOTS; s++)
    blocks += r->block[s] != NULL;
  return blocks;
}

const struct workload alloc_workload = {"alloc",     sizeof(struct alloc_root),
                                        alloc_init,  alloc_op,
                                        alloc_check, alloc_blocks,
                                        1,           NULL};
