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
 *
 * reuse-held: operation i on slot i % 2 (its thread's), on 2 threads in a
 * fixed interleaving that holds the durable replay floor back while a
 * block is written, freed and taken again: 0 | 1 | 2 4 6 | 3 | 8 10 12 |
 * 5 | ... (the rest, past what a run has, unordered). An operation keeps
 * the block it takes out as its slot's retired block and frees the one
 * retired before. In each window thread 1's last commit has its lines
 * unflushed, so no floor passes it, nor any later commit: thread 0's
 * operation 6k + 2 writes a word of its block X, 6k + 4 frees X, and
 * 6k + 6's new block would take X if the frees were settled (its record
 * opens in a part of the ring the floor has passed: no make_room first).
 * Only the floor holds X back (PTM_CRASH_MUTATE=early-reuse settles the
 * frees at once: recovery then replays 6k + 2's write over the new owner's
 * pattern). With 1 thread the slots alternate as well.
 */
#include "workload.h"

#include <ptm.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#define REUSE_SLOTS 4
#define REUSE_BYTES 1024

struct reuse_root {
  uint64_t done;
  uint64_t *block[REUSE_SLOTS]; /* word 0: stamp, then the pattern */
  /* reuse-held: the block a slot's last operation took out, freed by its
   * next one (NULL: none yet) */
  uint64_t *retired[REUSE_SLOTS];
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

/* Operation I on slot A: rewrites a word of its block and puts a new block
 * there. The old block is freed at once, or, RETIRE, kept as the slot's
 * retired block and the one retired before freed. */
static uint64_t reuse_slot_op(void *p, uint64_t i, unsigned a, int retire,
                              uint64_t seed) {
  struct reuse_root *r = p;
  uint64_t w = 1 + op_rand(seed, i, 0) % (REUSE_BYTES / 8 - 1);
  uint64_t position = 0;
  PTM_BEGIN();
  uint64_t *old = r->block[a];
  old[w] = pattern(old[0], w);
  if (retire) {
    ptm_free(r->retired[a]);
    r->retired[a] = old;
  } else {
    ptm_free(old);
  }
  r->block[a] = new_block(REUSE_SLOTS + i);
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

static uint64_t reuse_op(void *p, uint64_t i, uint64_t seed) {
  return reuse_slot_op(p, i, (unsigned)(i % REUSE_SLOTS), 0, seed);
}

/* BLK holds the block stamped STAMP, its pattern whole. */
static int check_block(const uint64_t *blk, uint64_t stamp, const char *what,
                       unsigned s, char *why, size_t n) {
  if (!blk || blk[0] != stamp) {
    snprintf(why, n,
             "reuse: the %s block of slot %u is not the one stamped %llu", what,
             s, (unsigned long long)stamp);
    return 1;
  }
  for (uint64_t w = 1; w < REUSE_BYTES / 8; w++)
    if (blk[w] != pattern(stamp, w)) {
      snprintf(why, n,
               "reuse: word %llu of the block stamped %llu (slot %u) was "
               "overwritten (a replay over reused memory?)",
               (unsigned long long)w, (unsigned long long)stamp, s);
      return 1;
    }
  return 0;
}

/* The check, operation I having used slot SLOT_OF(I) (RETIRE: the held
 * variant, whose slots also keep the block before). */
static int check_slots(const void *p, const uint64_t *order, uint64_t done,
                       unsigned (*slot_of)(uint64_t), int retire, char *why,
                       size_t n) {
  const struct reuse_root *r = p;
  uint64_t stamp[REUSE_SLOTS], before[REUSE_SLOTS];
  const uint64_t *live[2 * REUSE_SLOTS];
  unsigned nlive = 0;
  for (uint64_t s = 0; s < REUSE_SLOTS; s++)
    stamp[s] = s, before[s] = UINT64_MAX;
  for (uint64_t j = 0; j < done; j++) {
    unsigned s = slot_of(order[j]);
    before[s] = stamp[s];
    stamp[s] = REUSE_SLOTS + order[j];
  }
  for (unsigned s = 0; s < REUSE_SLOTS; s++) {
    if (check_block(r->block[s], stamp[s], "current", s, why, n))
      return 1;
    live[nlive++] = r->block[s];
    if (!retire)
      continue;
    if (before[s] == UINT64_MAX) {
      if (r->retired[s]) {
        snprintf(why, n,
                 "reuse: slot %u has a retired block, before any "
                 "operation on it",
                 s);
        return 1;
      }
      continue;
    }
    if (check_block(r->retired[s], before[s], "retired", s, why, n))
      return 1;
    live[nlive++] = r->retired[s];
  }
  for (unsigned a = 0; a < nlive; a++)
    for (unsigned b = 0; b < a; b++) {
      const char *x = (const char *)live[a], *y = (const char *)live[b];
      if (x < y + REUSE_BYTES && y < x + REUSE_BYTES) {
        snprintf(why, n, "reuse: two live blocks overlap");
        return 1;
      }
    }
  return 0;
}

static unsigned reuse_slot(uint64_t i) { return (unsigned)(i % REUSE_SLOTS); }

static int reuse_check(const void *p, const uint64_t *order, uint64_t done,
                       uint64_t seed, char *why, size_t n) {
  (void)seed;
  return check_slots(p, order, done, reuse_slot, 0, why, n);
}

/* (the root, the slots' blocks, the retired ones) */
static long reuse_blocks(const void *p) {
  const struct reuse_root *r = p;
  long n = 1 + REUSE_SLOTS;
  for (unsigned s = 0; s < REUSE_SLOTS; s++)
    n += r->retired[s] != NULL;
  return n;
}

const struct workload reuse_workload = {"reuse",     sizeof(struct reuse_root),
                                        reuse_init,  reuse_op,
                                        reuse_check, reuse_blocks,
                                        1,           NULL};

/* reuse-held's interleaving: which operations have returned (operation
 * numbers below HELD_MAX), and the run's counts. */
#define HELD_MAX 1024
static atomic_uchar held_returned[HELD_MAX];
static uint64_t held_ops;
static unsigned held_threads;

static void reuse_held_set_run(uint64_t ops, unsigned threads) {
  held_ops = ops < HELD_MAX ? ops : HELD_MAX;
  held_threads = threads;
  for (uint64_t i = 0; i < HELD_MAX; i++)
    atomic_store(&held_returned[i], 0);
}

/* The operation that operation I waits for (it waits until that one has
 * returned), or UINT64_MAX: thread 1's operation 2k + 1 waits for thread
 * 0's operation 6k, thread 0's operation 6k + 2 for thread 1's operation
 * 2k + 1. */
static uint64_t held_after(uint64_t i) {
  uint64_t j = UINT64_MAX;
  if (held_threads != 2)
    return j;
  if (i % 2 == 1)
    j = 3 * (i - 1);
  else if (i % 6 == 2)
    j = (i - 2) / 3 + 1;
  return j < held_ops ? j : UINT64_MAX;
}

static unsigned held_slot(uint64_t i) { return (unsigned)(i % 2); }

static int reuse_held_check(const void *p, const uint64_t *order, uint64_t done,
                            uint64_t seed, char *why, size_t n) {
  (void)seed;
  return check_slots(p, order, done, held_slot, 1, why, n);
}

static uint64_t reuse_held_op(void *p, uint64_t i, uint64_t seed) {
  uint64_t j = held_after(i);
  if (j != UINT64_MAX)
    while (!atomic_load_explicit(&held_returned[j], memory_order_acquire))
      sched_yield();
  uint64_t position = reuse_slot_op(p, i, held_slot(i), 1, seed);
  if (i < HELD_MAX)
    atomic_store_explicit(&held_returned[i], 1, memory_order_release);
  return position;
}

const struct workload reuse_held_workload = {"reuse-held",
                                             sizeof(struct reuse_root),
                                             reuse_init,
                                             reuse_held_op,
                                             reuse_held_check,
                                             reuse_blocks,
                                             1,
                                             reuse_held_set_run};
