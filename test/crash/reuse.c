/*
 * reuse.c - crash workload: a block written and freed in one transaction,
 * its memory handed to the next. 4 slots of 1 KiB blocks (larger than the
 * log ring logs whole: the new owner writes its block in place, unlogged);
 * operation i rewrites one word of the block in slot i % 4 (a logged write,
 * of the value it holds), frees that block and puts a new block filled
 * with a pattern of i there. The next operation's allocation may take the
 * freed block: it must not before no record of the freeing commit can be
 * replayed any more, or recovery writes the old word over the new owner's
 * pattern (runtime/pool/freed_blocks.h).
 * Invariants: every slot holds exactly the block of the last operation on
 * it among the first `done` of the commit order, its pattern whole; no two
 * blocks overlap; the heap holds exactly the live blocks.
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>

#define REUSE_SLOTS 4
#define REUSE_BYTES 1024

struct reuse_root {
  uint64_t done;
  uint64_t *block[REUSE_SLOTS]; /* word 0: stamp, then the pattern */
};

static uint64_t pattern(uint64_t stamp, uint64_t w) {
  return (stamp + 1) * 0x9e3779b97f4a7c15ull ^ w;
}

static uint64_t *new_block(uint64_t stamp) {
  uint64_t *blk = ptm_malloc(REUSE_BYTES);
  if (!blk)
    workload_out_of_memory("reuse block");
  blk[0] = stamp;
  for (uint64_t w = 1; w < REUSE_BYTES / 8; w++)
    blk[w] = pattern(stamp, w);
  return blk;
}

/* Stamps below REUSE_SLOTS are the initial blocks' (operation numbers are
 * offset by REUSE_SLOTS). */
static void reuse_init(void *p, uint64_t seed) {
  (void)seed;
  struct reuse_root *r = p;
  for (uint64_t s = 0; s < REUSE_SLOTS; s++) {
    PTM_BEGIN();
    r->block[s] = new_block(s);
    PTM_END();
  }
}

static uint64_t reuse_op(void *p, uint64_t i, uint64_t seed) {
  struct reuse_root *r = p;
  unsigned a = (unsigned)(i % REUSE_SLOTS);
  uint64_t w = 1 + op_rand(seed, i, 0) % (REUSE_BYTES / 8 - 1);
  uint64_t position = 0;
  PTM_BEGIN();
  uint64_t *old = r->block[a];
  old[w] = pattern(old[0], w);
  ptm_free(old);
  r->block[a] = new_block(REUSE_SLOTS + i);
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

static int reuse_check(const void *p, const uint64_t *order, uint64_t done,
                       uint64_t seed, char *why, size_t n) {
  (void)seed;
  const struct reuse_root *r = p;
  uint64_t stamp[REUSE_SLOTS];
  for (uint64_t s = 0; s < REUSE_SLOTS; s++)
    stamp[s] = s;
  for (uint64_t j = 0; j < done; j++)
    stamp[order[j] % REUSE_SLOTS] = REUSE_SLOTS + order[j];
  for (unsigned s = 0; s < REUSE_SLOTS; s++) {
    const uint64_t *blk = r->block[s];
    if (!blk || blk[0] != stamp[s]) {
      snprintf(why, n,
               "reuse: slot %u does not hold the block stamped %llu (first "
               "%llu operations)",
               s, (unsigned long long)stamp[s], (unsigned long long)done);
      return 1;
    }
    for (uint64_t w = 1; w < REUSE_BYTES / 8; w++)
      if (blk[w] != pattern(stamp[s], w)) {
        snprintf(why, n,
                 "reuse: word %llu of the block stamped %llu (slot %u) was "
                 "overwritten (a replay over reused memory?)",
                 (unsigned long long)w, (unsigned long long)stamp[s], s);
        return 1;
      }
    for (unsigned t = 0; t < s; t++) {
      const char *o = (const char *)r->block[t];
      if (o < (const char *)blk + REUSE_BYTES &&
          (const char *)blk < o + REUSE_BYTES) {
        snprintf(why, n, "reuse: the blocks of slots %u and %u overlap", t, s);
        return 1;
      }
    }
  }
  return 0;
}

static long reuse_blocks(const void *p) {
  (void)p;
  return 1 + REUSE_SLOTS;
}

const struct workload reuse_workload = {"reuse",
                                        sizeof(struct reuse_root),
                                        reuse_init,
                                        reuse_op,
                                        reuse_check,
                                        reuse_blocks,
                                        1};
