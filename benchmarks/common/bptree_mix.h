/*
 * bptree_mix.h - the mixed B+tree workload as both of its programs run it
 * (benchmarks/tbench/bptree_mix.c and its PMDK peer
 * benchmarks/peers/bptree_mix_pmdk.c): the draw of the next operation from
 * the mix of bench_params.h and the -r RANGE_WIDTH option. Included by the
 * one file of each program that runs the workload.
 */
#ifndef PTM_BENCH_BPTREE_MIX_H
#define PTM_BENCH_BPTREE_MIX_H

#include "bench.h"
#include "bench_params.h"

enum bptree_mix_op { MIX_LOOKUP, MIX_INSERT, MIX_RANGE, MIX_REMOVE };

/* The next operation of worker T. */
static inline enum bptree_mix_op bptree_mix_draw(bench_thread_t *t) {
  long op = bench_rand_below(t, 100);
  if (op < BPTREE_MIX_LOOKUP_PERCENT)
    return MIX_LOOKUP;
  if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT)
    return MIX_INSERT;
  if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT +
               BPTREE_MIX_RANGE_PERCENT)
    return MIX_RANGE;
  return MIX_REMOVE;
}

/* Keys a range query spans (-r). */
static long bptree_mix_range_width = BPTREE_MIX_RANGE_WIDTH;

/* bench_parse's handler of the workload's own option, -r RANGE_WIDTH. */
static int bptree_mix_option(int opt, const char *arg) {
  if (opt != 'r')
    return 0;
  bptree_mix_range_width = bench_parse_long("-r", arg, 1, 1L << 40);
  return 1;
}

#define BPTREE_MIX_OPTS "r:"
#define BPTREE_MIX_USAGE " [-r RANGE_WIDTH]"

#endif /* PTM_BENCH_BPTREE_MIX_H */
