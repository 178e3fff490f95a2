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
#include "bptree_mix.h"
#include "pmdk_bptree_bench.h"

static void worker(bench_thread_t *t) {
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    switch (bptree_mix_draw(t)) {
    case MIX_LOOKUP:
      t->count[2] += pbench_lookup(key);
      break;
    case MIX_INSERT:
      t->count[0] += pbench_insert(t->id, key);
      break;
    case MIX_RANGE:
      t->count[3] += pbench_range(key, key + (uint64_t)bptree_mix_range_width);
      break;
    case MIX_REMOVE:
      t->count[1] += pbench_remove(t->id, key);
      break;
    }
    t->ops++;
  }
}

/* The initial fill, counted as the setup thread's. */
static int fill_insert(long key) { return pbench_insert(-1, (uint64_t)key); }

int main(int argc, char **argv) {
  bench.key_range = BPTREE_MIX_KEY_RANGE;
  bench_parse(argc, argv, "bptree_mix", BPTREE_MIX_OPTS, BPTREE_MIX_USAGE,
              bptree_mix_option);
  pbench_open("bptree_mix", argv);
  long initial = bench_fill(fill_insert);
  bench_run(worker);
  int status =
      bench_finish("bptree_mix", pbench_validate("bptree_mix", initial));
  pbench_close();
  return status;
}
