/*
 * bptree_mix.pmdk: the mixed B+tree workload
 * (benchmarks/tbench/bptree_mix.c) on the PMDK B+tree: same mix, key range
 * and range width (bench_params.h), random keys, initial fill, options and
 * validation.
 *
 *   bptree_mix.pmdk [common options] [-r RANGE_WIDTH]        (-u is ignored)
 */
#include "bench.h"
#include "bench_params.h"
#include "pmdk_bptree_bench.h"

static long range_width = BPTREE_MIX_RANGE_WIDTH;

static int mix_option(int opt, const char *arg) {
  if (opt != 'r')
    return 0;
  range_width = bench_parse_long("-r", arg, 1, 1L << 40);
  return 1;
}

static void worker(bench_thread_t *t) {
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    long op = bench_rand_below(t, 100);
    if (op < BPTREE_MIX_LOOKUP_PERCENT)
      t->count[2] += pbench_lookup(key);
    else if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT)
      t->count[0] += pbench_insert(t->id, key);
    else if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT +
                      BPTREE_MIX_RANGE_PERCENT)
      t->count[3] += pbench_range(key, key + (uint64_t)range_width);
    else
      t->count[1] += pbench_remove(t->id, key);
    t->ops++;
  }
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_MIX_KEY_RANGE;
  bench_parse(argc, argv, "bptree_mix", "r:", " [-r RANGE_WIDTH]", mix_option);
  pbench_open("bptree_mix", argv);
  bench_thread_t setup = bench_setup_thread();
  long initial = 0;
  while (initial < bench.key_range / 2)
    initial +=
        pbench_insert(-1, (uint64_t)bench_rand_below(&setup, bench.key_range));
  bench_run(worker);
  int status =
      bench_finish("bptree_mix", pbench_validate("bptree_mix", initial));
  pbench_close();
  return status;
}
