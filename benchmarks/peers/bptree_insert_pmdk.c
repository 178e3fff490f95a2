/*
 * bptree_insert.pmdk: the insert-only B+tree workload
 * (benchmarks/tbench/bptree_insert.c) on the PMDK B+tree: same key range
 * (bench_params.h), random keys, options and validation.
 *
 *   bptree_insert.pmdk [common options]        (-u is ignored)
 */
#include "bench.h"
#include "bench_params.h"
#include "pmdk_bptree_bench.h"

static void worker(bench_thread_t *t) {
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    t->count[0] += pbench_insert(t->id, key);
    t->ops++;
  }
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_INSERT_KEY_RANGE;
  bench_parse(argc, argv, "bptree_insert", NULL, NULL, NULL);
  pbench_open("bptree_insert", argv);
  bench_run(worker);
  int status =
      bench_finish("bptree_insert", pbench_validate("bptree_insert", 0));
  pbench_close();
  return status;
}
